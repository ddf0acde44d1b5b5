// The precheck (DM's check-task, and more): everything a task needs from the upstream, the downstream
// and the tables between them, read before the first start. Every finding says what is wrong, why it
// matters for this task, and the exact statement or setting that fixes it.
#pragma once

#include <chrono>

#include "engine/precheck/precheck_report.h"
#include "engine/task/task_setup.h"

namespace syncscope::precheck {

struct PrecheckOptions {
    static constexpr std::chrono::hours kDefaultExpectedLag{24};
    // The longest the task may fall behind or stay stopped: binlog retention must cover it.
    std::chrono::seconds expectedLag = kDefaultExpectedLag;
};

// Connects to both servers with the task's settings and runs every check. Never throws for what it
// finds: a server out of reach or a check that fails is itself an error finding.
PrecheckReport runPrecheck(const task::TaskSetup& setup, const PrecheckOptions& options = {});

}  // namespace syncscope::precheck
