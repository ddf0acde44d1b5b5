#include "engine/verify/repair_applier.h"

#include "engine/apply/downstream_connection.h"
#include "engine/apply/worker_session.h"
#include "engine/verify/verify_error.h"

namespace syncscope::verify {

RepairApplier::RepairApplier(const ServerSettings& downstream,
                             const std::vector<std::pair<std::string, std::string>>& taskSessionVariables) {
    // The rows were read in UTC sessions: they are written back in one.
    std::vector<std::pair<std::string, std::string>> variables{{"time_zone", "+00:00"}};
    variables.insert(variables.end(), taskSessionVariables.begin(), taskSessionVariables.end());
    try {
        executor_ = apply::connectWorkerSession(downstream, variables);
    } catch (const apply::DownstreamError& e) {
        throw VerifyError(std::string("repair: ") + e.what());
    }
}

void RepairApplier::apply(const RepairPlan& plan) {
    try {
        for (const auto& statement : plan.statements()) {
            executor_->execute(statement);
        }
        executor_->commit();
    } catch (const apply::DownstreamError& e) {
        try {
            executor_->rollback();
        } catch (const apply::DownstreamError&) {
            // The connection is gone: the server rolls the transaction back itself.
        }
        throw VerifyError(std::string("repair failed, nothing of this table was changed: ") + e.what());
    }
}

}  // namespace syncscope::verify
