// Applies a repair to the downstream through the apply layer's executor (bound values, one
// transaction per table's batch, rolled back whole on any error), in a session set up exactly as the
// task's workers set theirs (apply/worker_session.h).
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/apply/dml_executor.h"
#include "engine/common/server_settings.h"
#include "engine/verify/repair_plan.h"

namespace syncscope::verify {

class RepairApplier {
public:
    // Throws VerifyError when the downstream cannot be reached.
    RepairApplier(const ServerSettings& downstream,
                  const std::vector<std::pair<std::string, std::string>>& taskSessionVariables);

    // All of the plan's statements in one transaction; throws VerifyError with the failing statement and
    // its values (the transaction is rolled back).
    void apply(const RepairPlan& plan);

private:
    std::unique_ptr<apply::DmlExecutor> executor_;
};

}  // namespace syncscope::verify
