// The status of a task with several sources as one snapshot, for the front ends that show one row or one
// view per task: the worst stage (an error anywhere is the task's error; a task partly paused still runs),
// figures summed (rows, rows/s, bytes behind) or the worst (lag), every subtask's table points. Positions
// belong to one source each, so the whole task's are left unknown: each subtask's status has its own.
#pragma once

#include <memory>
#include <vector>

#include "engine/task/status_snapshot.h"

namespace syncscope::multisource {

// `subtasks` in the task file's order, none null.
std::shared_ptr<const task::StatusSnapshot> wholeTaskStatus(
    const std::vector<std::shared_ptr<const task::StatusSnapshot>>& subtasks);

}  // namespace syncscope::multisource
