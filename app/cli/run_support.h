// What `syncscope-cli run` shares between a task with one source (run_command.cpp) and one with several
// (run_multi_source.cpp): its options, logging, tuning from the environment and the failed-event printout.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/cli/option_reader.h"
#include "engine/common/state_directory.h"
#include "engine/control/control_server.h"
#include "engine/task/task.h"
#include "engine/task/task_setup.h"

namespace syncscope::cli {

constexpr long kSignalPollNanoseconds = 200'000'000;

struct RunOptions {
    std::string taskFile;
    std::vector<std::string> sourceFiles;  // one per source; several run the task as subtasks
    std::string logDir = defaultLogDirectory();
    bool removeMeta = false;
    std::string listen;
    std::string tokenFile;
    std::string readTokenFile;  // a read-only token: GETs only
    std::string until;
    std::string tlsCert;
    std::string tlsKey;
};

// SYNCSCOPE_LOAD_THREADS / _CHUNK_ROWS / _METHOD and SYNCSCOPE_ADAPTIVE_CONCURRENCY into the setup.
void applyLoadTuning(task::TaskSetup& setup);
void applyConcurrencyChoice(task::TaskSetup& setup);
// stderr and DIR/<task>.log (rotated), level from SYNCSCOPE_LOG_LEVEL.
void setUpLogging(const std::string& logDir, const std::string& taskName);
void printFailedEvent(const task::StatusSnapshot& status);
// --listen's control API: address, token, TLS and the task's files in the log folder (secrets, previewer and
// subtasks are the caller's).
control::ControlServerOptions controlServerOptions(const RunOptions& options, const std::string& taskName);
// The published status once it shows the error the task stands in (bounded wait).
std::shared_ptr<const task::StatusSnapshot> publishedError(task::Task& task);

// Runs a task with several sources (options.sourceFiles.size() > 1); the exit code.
int runMultiSourceTask(const RunOptions& options);

}  // namespace syncscope::cli
