// `syncscope-cli checkpoints TASK.yaml --source A.yaml [--source B.yaml ...]`: one task's checkpoint table
// read with the servers of its files, a section per source, each source checked against its own upstream
// (a task with several sources has one upstream per source), then the whole task's line.
#pragma once

#include <string>
#include <vector>

namespace syncscope::cli {

struct TaskCheckpointsOptions {
    std::string taskFile;
    std::vector<std::string> sourceFiles;
    bool json = false;
    bool verify = false;
    bool repair = false;
    std::string logDir;
};

// The exit code: as `checkpoints` (0 read, 1 error; with --verify 0 right, 1 wrong rows, 2 not verifiable).
int runTaskCheckpoints(const TaskCheckpointsOptions& options);

}  // namespace syncscope::cli
