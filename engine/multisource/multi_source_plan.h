// A DM task file with several `mysql-instances` and one source file per instance, resolved into one
// TaskSetup per source (each keeps its own checkpoint rows: DM's checkpoint table keys them by source id).
// Bad input is refused before anything starts: a source file that is missing or unreadable, two files with
// one source id, an instance with no source file, a source file the task has no instance for.
#pragma once

#include <string>
#include <vector>

#include "engine/common/error.h"
#include "engine/config/task_config.h"
#include "engine/task/task_setup.h"

namespace syncscope::multisource {

// Why a task with several sources cannot be run: names the task file, the source ids and the files.
class MultiSourceError : public Error {
public:
    using Error::Error;
};

struct MultiSourcePlan {
    config::TaskConfig task;
    std::vector<task::TaskSetup> subtasks;  // in the task file's mysql-instances order
    std::vector<std::string> sourceFiles;   // the same order: the file each subtask's source came from
    std::vector<std::string> warnings;
};

// Loads the task file and every source file. Throws MultiSourceError (or ConfigError for a file that does not
// load); nothing is started.
MultiSourcePlan loadMultiSourcePlan(const std::string& taskFile, const std::vector<std::string>& sourceFiles);

}  // namespace syncscope::multisource
