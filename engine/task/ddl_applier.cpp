#include "engine/task/ddl_applier.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/statement.h>

#include <memory>

#include "engine/common/server_errors.h"

namespace syncscope::task {

bool DdlApplier::isAlreadyAppliedError(int code) {
    using namespace server_error;
    switch (code) {
        case kDatabaseExists:
        case kDatabaseMissing:
        case kTableExists:
        case kUnknownTable:
        case kDuplicateColumn:
        case kDuplicateKeyName:
        case kCannotDropField:
        case kNoSuchTable:
            return true;
        default:
            return false;
    }
}

DdlOutcome DdlApplier::apply(const DdlPlan& plan, bool possiblyApplied) {
    DdlOutcome outcome;
    try {
        std::unique_ptr<sql::Statement> statement(control_.createStatement());
        if (!plan.defaultSchema.empty()) {
            statement->execute("USE " + plan.quotedDefaultSchema());
        }
        statement->execute(plan.sql);
        outcome.applied = true;
    } catch (const sql::SQLException& e) {
        if (possiblyApplied && isAlreadyAppliedError(e.getErrorCode())) {
            outcome.appliedBefore = true;
        } else {
            outcome.errorCode = e.getErrorCode();
            outcome.error = e.what();
        }
    }
    return outcome;
}

}  // namespace syncscope::task
