#include "engine/apply/error_class.h"

#include <unordered_map>

namespace syncscope::apply {

namespace {

// Server and client error codes (mysqld_error.h, errmsg.h) the classification names.
enum Code : int {
    kConnectionKilled = 1927,      // ER_CONNECTION_KILLED (MariaDB)
    kServerShutdown = 1053,        // ER_SERVER_SHUTDOWN
    kTooManyConnections = 1040,    // ER_CON_COUNT_ERROR
    kLockWaitTimeout = 1205,       // ER_LOCK_WAIT_TIMEOUT
    kDeadlock = 1213,              // ER_LOCK_DEADLOCK
    kNetReadError = 1158,          // ER_NET_READ_ERROR
    kNetReadInterrupted = 1159,    // ER_NET_READ_INTERRUPTED
    kNetWriteError = 1160,         // ER_NET_ERROR_ON_WRITE
    kNetWriteInterrupted = 1161,   // ER_NET_WRITE_INTERRUPTED
    kQueryInterrupted = 1317,      // ER_QUERY_INTERRUPTED
    kCannotConnectLocal = 2002,    // CR_CONNECTION_ERROR
    kCannotConnect = 2003,         // CR_CONN_HOST_ERROR
    kServerGone = 2006,            // CR_SERVER_GONE_ERROR
    kServerLost = 2013,            // CR_SERVER_LOST
    kServerLostExtended = 2055,    // CR_SERVER_LOST_EXTENDED
    kUnknownColumn = 1054,         // ER_BAD_FIELD_ERROR
    kNoSuchTable = 1146,           // ER_NO_SUCH_TABLE
    kUnknownDatabase = 1049,       // ER_BAD_DB_ERROR
    kDuplicateKey = 1062,          // ER_DUP_ENTRY
    kTableAccessDenied = 1142,     // ER_TABLEACCESS_DENIED_ERROR
    kDatabaseAccessDenied = 1044,  // ER_DBACCESS_DENIED_ERROR
    kAccessDenied = 1045,          // ER_ACCESS_DENIED_ERROR
    kIncorrectValue = 1366,        // ER_TRUNCATED_WRONG_VALUE_FOR_FIELD
    kOutOfRange = 1264,            // ER_WARN_DATA_OUT_OF_RANGE
    kDataTooLong = 1406,           // ER_DATA_TOO_LONG
    kColumnCannotBeNull = 1048,    // ER_BAD_NULL_ERROR
    kForeignKeyParent = 1452,      // ER_NO_REFERENCED_ROW_2
    kReadOnly = 1290,              // ER_OPTION_PREVENTS_STATEMENT
};

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
        {kDuplicateKey,
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
        {kForeignKeyParent,
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
