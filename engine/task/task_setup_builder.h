// Resolves a loaded DM task file and source file into the TaskSetup one syncer runs with.
#pragma once

#include <string>
#include <vector>

#include "engine/config/source_config.h"
#include "engine/config/task_config.h"
#include "engine/task/task_setup.h"

namespace syncscope::task {

// Throws ConfigError when the task has no instance for the source's source-id. Warnings (keys accepted but not acted
// on, GTID mismatches) are appended.
TaskSetup makeTaskSetup(const config::TaskConfig& task, const config::SourceConfig& source,
                        std::vector<std::string>& warnings);

}  // namespace syncscope::task
