#include "engine/task/ddl_applier.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/statement.h>

#include <memory>

namespace syncscope::task {

DdlOutcome DdlApplier::apply(const DdlPlan& plan) {
    DdlOutcome outcome;
    try {
        std::unique_ptr<sql::Statement> statement(control_.createStatement());
        if (!plan.defaultSchema.empty()) {
            statement->execute("USE " + plan.quotedDefaultSchema());
        }
        statement->execute(plan.sql);
        outcome.applied = true;
    } catch (const sql::SQLException& e) {
        outcome.errorCode = e.getErrorCode();
        outcome.error = e.what();
    }
    return outcome;
}

}  // namespace syncscope::task
