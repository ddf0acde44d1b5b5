// The subtasks of a task that runs several sources (one per DM `mysql-instances` entry), as the control API
// serves them: GET /api/v1/status lists them, and ?source=ID sends a command to one of them.
#pragma once

#include <string>
#include <vector>

#include "engine/task/task_control.h"

namespace syncscope::control {

class SubtaskDirectory {
public:
    virtual ~SubtaskDirectory() = default;

    // The source ids in the task file's order.
    virtual std::vector<std::string> sourceIds() const = 0;
    // The subtask of that source; null when the task has none.
    virtual task::TaskControl* subtask(const std::string& sourceId) const = 0;
};

}  // namespace syncscope::control
