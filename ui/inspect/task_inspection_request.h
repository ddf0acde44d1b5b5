// The inspection of an open task's own checkpoints: the task file's target database, meta schema and
// name, and its source file's upstream and source-id (passwords resolved as the loader resolves them).
#pragma once

#include <string>

#include "engine/inspect/checkpoint_inspector.h"

namespace syncscope::ui {

// Throws config::ConfigError ("FILE:LINE: key ...: what") when a file does not load.
inspect::InspectionRequest inspectionRequestForTask(const std::string& taskPath, const std::string& sourcePath);

}  // namespace syncscope::ui
