#include "engine/apply/error_class.h"

#include <unordered_map>

#include "engine/common/server_errors.h"

namespace syncscope::apply {

namespace {

using namespace server_error;  // NOLINT: the error numbers read as in the server's docs

}  // namespace

const char* errorClassName(ErrorClass errorClass) {
    return errorClass == ErrorClass::Retryable ? "retryable" : "needs the DBA";
}

ErrorClass classifyDownstreamError(int code) {
    switch (code) {
        case kConnectionKilled:
        case kServerShutdown:
        case kTooManyConnections:
        case kLockWaitTimeout:
        case kDeadlock:
        case kNetReadError:
        case kNetReadInterrupted:
        case kNetWriteError:
        case kNetWriteInterrupted:
        case kQueryInterrupted:
        case kCannotConnectLocal:
        case kCannotConnect:
        case kServerGone:
        case kServerLost:
        case kServerLostExtended:
            return ErrorClass::Retryable;
        default:
            return ErrorClass::NeedsDba;
    }
}

std::string hintForDownstreamError(int code) {
    static const std::unordered_map<int, std::string> kHints = {
        {kUnknownColumn,
         "the downstream table lacks a column the upstream row has: apply the upstream's DDL downstream "
         "(e.g. ALTER TABLE ... ADD COLUMN), then resume"},
        {kNoSuchTable, "the downstream table does not exist: create it (or fix the route), then resume"},
        {kUnknownDatabase, "the downstream database does not exist: create it (or fix the route), then resume"},
        {kDuplicateEntry,
         "a row with this key already exists downstream: remove the conflicting row or resume in safe mode"},
        {kTableAccessDenied, "the target user lacks a privilege on this table: GRANT it, then resume"},
        {kDatabaseAccessDenied, "the target user lacks a privilege on this database: GRANT it, then resume"},
        {kAccessDenied, "check the user name and password of the target database"},
        {kIncorrectValue,
         "the downstream column cannot store this value (type or character set differs from the upstream's): "
         "make the column match, then resume"},
        {kOutOfRange, "the downstream column's type is narrower than the upstream's: widen it, then resume"},
        {kDataTooLong, "the downstream column is shorter than the upstream's: widen it, then resume"},
        {kColumnCannotBeNull, "the downstream column is NOT NULL but the upstream's is not: make them match"},
        {kNoReferencedRow,
         "a foreign key check failed downstream: set foreign_key_checks=0 in the target session or add the parent "
         "row"},
        {kReadOnly, "the downstream is read-only (read_only or super_read_only): make it writable, then resume"},
    };
    auto it = kHints.find(code);
    if (it != kHints.end()) {
        return it->second;
    }
    if (classifyDownstreamError(code) == ErrorClass::Retryable) {
        return "a passing condition (connection, lock or restart): the task resumes by itself";
    }
    return {};
}

}  // namespace syncscope::apply
