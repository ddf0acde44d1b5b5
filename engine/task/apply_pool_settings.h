// The apply workers' settings a task's syncer settings and target session give (DM's worker-count,
// batch, queue-size, multiple-rows and compact; the target's session variables).
#pragma once

#include <map>
#include <string>

#include "engine/apply/worker_pool.h"
#include "engine/task/task_setup.h"

namespace syncscope::task {

// Whether the target session's variables leave foreign_key_checks on (the workers' default is off, as in DM).
bool foreignKeyChecksOn(const std::map<std::string, std::string>& session);

// Everything but `connect`. With foreign_key_checks on, one statement per row (and so no folding):
// merged batches put a table's rows together, which could insert a child before its parent.
apply::WorkerPoolSettings applyPoolSettings(const TaskSetup& setup);

}  // namespace syncscope::task
