// syncscope-cli run: runs one task in the foreground until SIGTERM/SIGINT (graceful stop, exit 0) or
// an error that needs the DBA (the failed event is printed, exit 1).
#include <signal.h>

#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <string>
#include <string_view>

#include "app/cli/cli_commands.h"
#include "engine/task/task.h"
#include "engine/task/task_setup_builder.h"

namespace syncscope::cli {
namespace {

constexpr size_t kLogFileBytes = 64 * 1024 * 1024;
constexpr size_t kLogFilesKept = 5;
constexpr long kSignalPollNanoseconds = 200'000'000;

const char* const kRunUsage =
    "Usage: syncscope-cli run TASK.yaml --source SOURCE.yaml [--remove-meta] [--log-dir DIR]\n"
    "Runs the task's sync unit in the foreground. It starts from the persisted checkpoint, else the\n"
    "task's meta, else the upstream's current position. SIGTERM or SIGINT stops it gracefully\n"
    "(checkpoint flushed behind a barrier); an error that needs the DBA prints the failed event and\n"
    "exits 1. Logs go to stderr and DIR/<task>.log (default ./syncscope-logs); operator actions go\n"
    "to DIR/<task>-audit.jsonl.\n";

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct RunOptions {
    std::string taskFile;
    std::string sourceFile;
    std::string logDir = "syncscope-logs";
    bool removeMeta = false;
};

void setUpLogging(const std::string& logDir, const std::string& taskName) {
    std::filesystem::create_directories(logDir);
    auto console = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    auto file = std::make_shared<spdlog::sinks::rotating_file_sink_mt>(logDir + "/" + taskName + ".log", kLogFileBytes,
                                                                       kLogFilesKept);
    auto logger = std::make_shared<spdlog::logger>("syncscope", spdlog::sinks_init_list{console, file});
    logger->set_level(spdlog::level::info);
    logger->flush_on(spdlog::level::info);
    spdlog::set_default_logger(logger);
}

void printFailedEvent(const task::StatusSnapshot& status) {
    std::cerr << "syncscope-cli run: task " << status.taskName << " stopped: " << status.lastError << '\n';
    if (!status.failedEvent) {
        return;
    }
    const task::FailedEvent& failed = *status.failedEvent;
    std::cerr << "  position: " << failed.position.text() << (failed.position.gtid.empty() ? "" : " gtid ")
              << failed.position.gtid << "\n  table:    " << failed.schema << "." << failed.table
              << "\n  op:       " << failed.operation << "\n  error:    " << failed.errorCode << " "
              << failed.errorMessage << "\n  sql:      " << failed.sql << '\n';
    if (!failed.hint.empty()) {
        std::cerr << "  hint:     " << failed.hint << '\n';
    }
    std::cerr << "  persisted global point: " << status.globalPersisted.text()
              << " (a restart resumes there and meets this event again)\n";
}

int runTask(std::span<char*> args) {
    RunOptions options;
    for (size_t i = 0; i < args.size(); ++i) {
        std::string_view arg = args[i];
        auto value = [&](const char* name) -> std::string {
            if (i + 1 >= args.size()) {
                throw UsageError(std::string(name) + " needs a value");
            }
            return args[++i];
        };
        if (arg == "--help" || arg == "-h") {
            std::cout << kRunUsage;
            return kExitOk;
        } else if (arg == "--source") {
            options.sourceFile = value("--source");
        } else if (arg == "--log-dir") {
            options.logDir = value("--log-dir");
        } else if (arg == "--remove-meta") {
            options.removeMeta = true;
        } else if (!arg.empty() && arg[0] == '-') {
            throw UsageError("unknown option '" + std::string(arg) + "'");
        } else if (options.taskFile.empty()) {
            options.taskFile = arg;
        } else {
            throw UsageError("more than one task file given");
        }
    }
    if (options.taskFile.empty() || options.sourceFile.empty()) {
        throw UsageError("run needs TASK.yaml and --source SOURCE.yaml");
    }

    task::TaskConfig taskConfig = task::loadTaskConfig(options.taskFile);
    task::SourceConfig sourceConfig = task::loadSourceConfig(options.sourceFile);
    std::vector<std::string> warnings;
    task::TaskSetup setup = task::makeTaskSetup(taskConfig, sourceConfig, warnings);
    setup.removeMeta = options.removeMeta;
    setup.auditLogPath = options.logDir + "/" + setup.taskName + "-audit.jsonl";

    // Signals are taken by this thread only: block them before any engine thread starts.
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);

    setUpLogging(options.logDir, setup.taskName);
    for (const std::string& warning : warnings) {
        spdlog::warn("{}", warning);
    }
    spdlog::info("task {} (source {}): upstream {}, target {}", setup.taskName, setup.sourceId,
                 setup.upstream.describe(), setup.downstream.describe());

    task::Task runningTask(setup);
    task::CommandResult started = runningTask.start();
    if (!started.accepted) {
        std::cerr << "syncscope-cli run: " << started.reason << '\n';
        return kExitFailure;
    }
    timespec poll{0, kSignalPollNanoseconds};
    while (true) {
        int signal = sigtimedwait(&stopSignals, nullptr, &poll);
        if (signal == SIGINT || signal == SIGTERM) {
            spdlog::info("signal {}: stopping gracefully", signal);
            runningTask.stop();
            runningTask.waitUntilStopped();
            return kExitOk;
        }
        if (runningTask.waitingForDba()) {
            // Let the publisher catch the failed event before it is printed.
            std::this_thread::sleep_for(std::chrono::milliseconds(2 * kSignalPollNanoseconds / 1'000'000));
            printFailedEvent(*runningTask.status());
            runningTask.stop();
            runningTask.waitUntilStopped();
            return kExitFailure;
        }
    }
}

int run(std::span<char*> args) {
    try {
        return runTask(args);
    } catch (const UsageError& e) {
        std::cerr << "syncscope-cli run: " << e.what() << "\n" << kRunUsage;
        return kExitUsage;
    } catch (const std::exception& e) {
        std::cerr << "syncscope-cli run: " << e.what() << '\n';
        return kExitFailure;
    }
}

const CommandRegistration kRegistration{{"run", "run a DM task's sync unit in the foreground", &run}};

}  // namespace
}  // namespace syncscope::cli
