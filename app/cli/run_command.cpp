// syncscope-cli run: runs one task in the foreground until SIGTERM/SIGINT (graceful stop, exit 0) or
// an error that needs the DBA (the failed event is printed, exit 1).
#include <signal.h>
#include <unistd.h>

#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <string_view>
#include <thread>

#include "app/cli/cli_commands.h"
#include "app/cli/option_reader.h"
#include "app/cli/run_support.h"
#include "engine/common/redacting_sink.h"
#include "engine/common/state_directory.h"
#include "engine/control/control_server.h"
#include "engine/control/listen_address.h"
#include "engine/control/token_file.h"
#include "engine/load/chunk_copier.h"
#include "engine/multisource/shard_merge_check.h"
#include "engine/multisource/single_source_task.h"
#include "engine/preview/task_command_previewer.h"
#include "engine/task/stop_point.h"
#include "engine/task/task.h"
#include "engine/task/task_setup_builder.h"

namespace syncscope::cli {

namespace {
constexpr size_t kLogFileBytes = 64 * 1024 * 1024;
constexpr size_t kLogFilesKept = 5;
}  // namespace

// The status snapshot is published a few times a second: wait until it shows the error the task
// stands in (bounded), rather than sleeping and hoping it did.
std::shared_ptr<const syncscope::task::StatusSnapshot> publishedError(syncscope::task::Task& task) {
    constexpr auto kPublishWait = std::chrono::seconds(5);
    constexpr auto kPoll = std::chrono::milliseconds(10);
    auto deadline = std::chrono::steady_clock::now() + kPublishWait;
    auto status = task.status();
    while ((status->stage != syncscope::task::Stage::Error || !status->failedEvent) &&
           std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(kPoll);
        status = task.status();
    }
    return status;
}

// The load's worker count, chunk size and method from the environment, over what the task file's
// mydumpers / loaders say (for benchmarks and tests); a value that is not a positive number is ignored.
void applyLoadTuning(task::TaskSetup& setup) {
    auto positive = [](const char* name) -> uint64_t {
        const char* text = std::getenv(name);
        if (text == nullptr) {
            return 0;
        }
        char* end = nullptr;
        unsigned long long value = std::strtoull(text, &end, 10);
        return end != text && *end == '\0' ? value : 0;
    };
    if (uint64_t threads = positive("SYNCSCOPE_LOAD_THREADS"); threads > 0) {
        setup.loadThreads = threads;
    }
    if (uint64_t rows = positive("SYNCSCOPE_LOAD_CHUNK_ROWS"); rows > 0) {
        setup.loadChunkRows = rows;
        setup.loadChunkBytes = 0;
    }
    if (const char* method = std::getenv("SYNCSCOPE_LOAD_METHOD"); method != nullptr && *method != '\0') {
        if (!load::loadMethodNamed(method)) {
            throw std::invalid_argument(std::string("SYNCSCOPE_LOAD_METHOD '") + method +
                                        "' is not a load method: use prepared (the default), insert or load-data");
        }
        setup.loadMethod = method;
    }
}

// SYNCSCOPE_ADAPTIVE_CONCURRENCY=off keeps worker-count transactions at once instead of searching for
// the best number (on, the default).
void applyConcurrencyChoice(task::TaskSetup& setup) {
    const char* text = std::getenv("SYNCSCOPE_ADAPTIVE_CONCURRENCY");
    if (text == nullptr || *text == '\0') {
        return;
    }
    std::string value(text);
    if (value == "on") {
        setup.adaptiveConcurrency = true;
    } else if (value == "off") {
        setup.adaptiveConcurrency = false;
    } else {
        throw std::invalid_argument("SYNCSCOPE_ADAPTIVE_CONCURRENCY '" + value + "' is not on or off");
    }
}

void setUpLogging(const std::string& logDir, const std::string& taskName) {
    std::filesystem::create_directories(logDir);
    auto console = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    auto file = std::make_shared<spdlog::sinks::rotating_file_sink_mt>(logDir + "/" + taskName + ".log", kLogFileBytes,
                                                                       kLogFilesKept);
    auto logger = std::make_shared<spdlog::logger>("syncscope", spdlog::sinks_init_list{console, file});
    // SYNCSCOPE_LOG_LEVEL=debug also logs every checkpoint flush with its duration.
    auto level = spdlog::level::info;
    if (const char* asked = std::getenv("SYNCSCOPE_LOG_LEVEL"); asked != nullptr && *asked != '\0') {
        level = spdlog::level::from_str(asked);
        if (level == spdlog::level::off && std::string_view(asked) != "off") {
            throw std::runtime_error("SYNCSCOPE_LOG_LEVEL is '" + std::string(asked) +
                                     "': use trace, debug, info, warn, error, critical or off");
        }
    }
    logger->set_level(level);
    logger->flush_on(spdlog::level::info);
    redactSecretsIn(*logger);  // a binlogged CREATE/ALTER USER is logged with its password redacted
    spdlog::set_default_logger(logger);
}

control::ControlServerOptions controlServerOptions(const RunOptions& options, const std::string& taskName) {
    control::ListenAddress address = control::ListenAddress::parse(options.listen);
    control::ControlServerOptions serverOptions;
    serverOptions.host = address.host;
    serverOptions.port = address.port;
    if (!options.readTokenFile.empty()) {
        serverOptions.readToken = control::readTokenFile(options.readTokenFile);
    }
    if (!options.tokenFile.empty()) {
        serverOptions.token = control::readTokenFile(options.tokenFile);
    }
    serverOptions.verifySummaryFile = options.logDir + "/" + taskName + "-verify.json";
    serverOptions.tlsCertFile = options.tlsCert;
    serverOptions.tlsKeyFile = options.tlsKey;
    serverOptions.auditLogPath = options.logDir + "/" + taskName + "-audit.jsonl";
    serverOptions.logFilePath = options.logDir + "/" + taskName + ".log";
    return serverOptions;
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

namespace {

// The first published status in `stage` (the publisher runs a few times a second), or the latest after a while.
std::shared_ptr<const syncscope::task::StatusSnapshot> publishedStage(syncscope::task::Task& task,
                                                                      syncscope::task::Stage stage) {
    constexpr auto kPublishWait = std::chrono::seconds(5);
    constexpr auto kPoll = std::chrono::milliseconds(10);
    auto deadline = std::chrono::steady_clock::now() + kPublishWait;
    auto status = task.status();
    while (status->stage != stage && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(kPoll);
        status = task.status();
    }
    return status;
}

const char* const kRunUsage =
    "Usage: syncscope-cli run TASK.yaml --source SOURCE.yaml [--source SOURCE2.yaml ...] [--remove-meta]\n"
    "         [--log-dir DIR]\n"
    "         [--listen HOST:PORT [--token-file F [--read-token-file R]] [--tls-cert CERT.pem --tls-key KEY.pem]]\n"
    "         [--until FILE:POS|GTID|'YYYY-MM-DD HH:MM:SS']\n"
    "Runs the task's sync unit in the foreground. It starts from the persisted checkpoint, else the\n"
    "task's meta, else the upstream's current position. SIGTERM or SIGINT stops it gracefully\n"
    "(checkpoint flushed behind a barrier); an error that needs the DBA prints the failed event and\n"
    "exits 1. Logs go to stderr and DIR/<task>.log; operator actions go to DIR/<task>-audit.jsonl.\n"
    "DIR defaults to $XDG_STATE_HOME/syncscope/logs (~/.local/state/syncscope/logs); the folder in\n"
    "use is logged at start.\n"
    "--listen serves the HTTP control API on HOST:PORT (127.0.0.1 unless told otherwise):\n"
    "GET /api/v1/{status,version,audit,log}, GET /metrics, POST /api/v1/{start,pause,resume,stop,skip,\n"
    "resume-from,until}, GET /api/v1/preview/{skip,resume-from} (docs/api.md). --tls-cert and\n"
    "--tls-key serve it over HTTPS instead. A skip first saves the rows it leaves out as replayable\n"
    "SQL, DIR/<task>-skipped-<time>.sql, named in its audit entry.\n"
    "Any address other than loopback needs --token-file F (first line: a token of 16 or more\n"
    "characters) that every request must carry as 'Authorization: Bearer <token>'. --read-token-file R\n"
    "adds a read-only token: it may GET (status, metrics, log, audit, history, previews), and a command\n"
    "sent with it is refused with 403 naming the control token it lacks. With --listen,\n"
    "an error that needs the DBA does not end the process: the failed event is printed and the API\n"
    "keeps serving so that the DBA can resume, skip or resume-from; a stop through the API keeps it\n"
    "serving too. SIGTERM or SIGINT ends it.\n"
    "The status and metrics also carry the last `syncscope-cli verify` of the task run with the same\n"
    "--log-dir (DIR/<task>-verify.json).\n"
    "task-mode all or full loads a consistent snapshot first (a progress line on a terminal);\n"
    "full then exits 0. SYNCSCOPE_LOAD_THREADS (default 4), SYNCSCOPE_LOAD_CHUNK_ROWS (default\n"
    "100000) and SYNCSCOPE_LOAD_METHOD (prepared, the default; insert; load-data) tune the load.\n"
    "The apply searches for the number of downstream transactions at once that gives the most rows/s,\n"
    "worker-count the ceiling; SYNCSCOPE_ADAPTIVE_CONCURRENCY=off runs worker-count at once.\n"
    "--until pauses the task by itself at a transaction end: after the transaction ending at or after\n"
    "FILE:POS, after the transaction that completes a GTID, or before the first transaction at or after a\n"
    "local time (as START SLAVE UNTIL; POST /api/v1/until {\"point\": ...} sets one while it runs).\n"
    "Without --listen the process then stops gracefully and exits 0.\n"
    "Several --source files (one per mysql-instances entry of the task) run the task as one subtask per\n"
    "source in this process, each with its own checkpoint rows; every source-id needs its file. Tables\n"
    "routed into one downstream table (DM's shard merge) need shard-mode: pessimistic or optimistic in\n"
    "the task file (a DDL waits for every shard table, or, optimistic, runs at once when it fits them\n"
    "all: GET /api/v1/shard-locks); without it a task whose sources would write one downstream table is\n"
    "refused, naming the table.\n"
    "With --listen, GET /api/v1/status lists the subtasks and ?source=ID sends a command to one source.\n";

// During a snapshot load: one line rewritten in place about once a second on a terminal; elsewhere
// (a log file, a pipe) a plain line every few seconds. A last line when the load is over.
class LoadProgressPrinter {
public:
    void print(const task::StatusSnapshot& status) {
        if (!status.load || finishedShown_) {
            return;
        }
        auto now = std::chrono::steady_clock::now();
        bool over = status.load->finished;
        if (!over && now - lastPrint_ < (terminal_ ? kTerminalInterval : kPipeInterval)) {
            return;
        }
        if (status.load->unit == load::kUnitDump && !over) {
            return;  // nothing to count before the plan exists
        }
        lastPrint_ = now;
        std::cerr << (terminal_ ? "\r\033[K" : "") << "load: " << load::progressLine(*status.load)
                  << (terminal_ && !over ? "" : "\n") << std::flush;
        finishedShown_ = over;
    }

private:
    static constexpr std::chrono::seconds kTerminalInterval{1};
    static constexpr std::chrono::seconds kPipeInterval{10};
    bool terminal_ = isatty(STDERR_FILENO) != 0;
    bool finishedShown_ = false;
    std::chrono::steady_clock::time_point lastPrint_{};
};

int runTask(std::span<char*> args) {
    if (asksForHelp(args)) {
        std::cout << kRunUsage;
        return kExitOk;
    }
    RunOptions options;
    OptionReader()
        .repeated("--source", options.sourceFiles)
        .value("--log-dir", options.logDir)
        .value("--listen", options.listen)
        .value("--token-file", options.tokenFile)
        .value("--read-token-file", options.readTokenFile)
        .value("--until", options.until)
        .value("--tls-cert", options.tlsCert)
        .value("--tls-key", options.tlsKey)
        .flag("--remove-meta", options.removeMeta)
        .argument(options.taskFile, "more than one task file given")
        .read(args);
    if (options.taskFile.empty() || options.sourceFiles.empty()) {
        throw UsageError("run needs TASK.yaml and --source SOURCE.yaml");
    }
    if (!options.readTokenFile.empty() && options.tokenFile.empty()) {
        throw UsageError("--read-token-file needs --token-file (the control token)");
    }
    if (!options.tokenFile.empty() && options.listen.empty()) {
        throw UsageError("--token-file needs --listen");
    }
    if ((!options.tlsCert.empty() || !options.tlsKey.empty()) && options.listen.empty()) {
        throw UsageError("--tls-cert and --tls-key need --listen");
    }
    if (options.tlsCert.empty() != options.tlsKey.empty()) {
        throw UsageError("--tls-cert and --tls-key go together");
    }

    if (!options.until.empty()) {
        try {
            task::StopPoint::parse(options.until);  // a point that is no point starts nothing
        } catch (const Error& e) {
            throw UsageError(std::string("--until: ") + e.what());
        }
    }

    if (options.sourceFiles.size() > 1) {
        if (!options.until.empty()) {
            throw UsageError(
                "--until names a point of one source's binlog: it cannot be given with several --source "
                "files (POST /api/v1/until?source=ID sets one for one source)");
        }
        return runMultiSourceTask(options);  // run_multi_source.cpp
    }
    config::TaskConfig taskConfig = config::loadTaskConfig(options.taskFile);
    config::SourceConfig sourceConfig = config::loadSourceConfig(options.sourceFiles.front());
    std::vector<std::string> warnings;
    task::TaskSetup setup = task::makeTaskSetup(taskConfig, sourceConfig, warnings);
    setup.removeMeta = options.removeMeta;
    applyLoadTuning(setup);
    applyConcurrencyChoice(setup);
    setup.auditLogPath = options.logDir + "/" + setup.taskName + "-audit.jsonl";
    if (!taskConfig.shardMode.empty()) {
        // Tables of this one source merged into one downstream table (routes): their DDLs are coordinated.
        std::vector<task::TaskSetup> one{std::move(setup)};
        multisource::planShardMerge(one, taskConfig.caseSensitive, taskConfig.shardMode,
                                    taskConfig.strictOptimisticShardMode);
        setup = std::move(one.front());
    }

    // Signals are taken by this thread only: block them before any engine thread starts.
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);

    setUpLogging(options.logDir, setup.taskName);
    spdlog::info("logs in {}/{}.log, operator actions in {}", options.logDir, setup.taskName, setup.auditLogPath);
    for (const std::string& warning : warnings) {
        spdlog::warn("{}", warning);
    }
    spdlog::info("task {} (source {}): upstream {}, target {}", setup.taskName, setup.sourceId,
                 setup.upstream.describe(), setup.downstream.describe());

    // A pause given through the API is kept across restarts (in the downstream beside the checkpoint, a copy beside
    // the audit log), as for a task with several sources: a restart of a paused task starts it paused.
    multisource::SingleSourceTask opened = multisource::openSingleSourceTask(setup);
    if (!opened.warning.empty()) {
        spdlog::warn("{}", opened.warning);
    }
    task::Task& runningTask = *opened.engine;
    multisource::SourceSubtask& commands = *opened.commands;
    std::unique_ptr<control::ControlServer> controlServer;
    if (!options.listen.empty()) {
        control::ControlServerOptions serverOptions = controlServerOptions(options, setup.taskName);
        serverOptions.secrets = {setup.upstream.password, setup.downstream.password};
        // Skipped rows are saved as replayable SQL beside the audit log (named in the skip's audit entry).
        serverOptions.previewer = std::make_shared<preview::TaskCommandPreviewer>(setup, options.logDir);
        controlServer = std::make_unique<control::ControlServer>(commands, serverOptions);
        std::cerr << "syncscope-cli run: control API on " << controlServer->url() << '\n';
    }
    bool failureShown = false;
    if (!options.until.empty()) {
        task::CommandResult until = runningTask.stopAt(options.until);
        if (!until.accepted) {
            throw UsageError("--until: " + until.reason);
        }
        spdlog::info("task {}: {}", setup.taskName, until.reason);
    }
    task::CommandResult started = commands.start();
    if (!started.accepted) {
        std::cerr << "syncscope-cli run: " << started.reason << '\n';
        return kExitFailure;
    }
    if (commands.pauseRemembered() || commands.waitingForPauses()) {
        std::cerr << "syncscope-cli run: " << started.reason
                  << (controlServer ? " (POST /api/v1/resume on " + controlServer->url() + ")" : std::string()) << '\n';
    }
    timespec poll{0, kSignalPollNanoseconds};
    LoadProgressPrinter loadProgress;
    while (true) {
        loadProgress.print(*runningTask.status());
        int signal = sigtimedwait(&stopSignals, nullptr, &poll);
        if (signal == SIGINT || signal == SIGTERM) {
            spdlog::info("signal {}: stopping gracefully", signal);
            commands.stop();  // also ends a wait for the downstream's pauses, before the Task has started
            runningTask.waitUntilStopped();
            return kExitOk;
        }
        if (setup.taskMode == "full" && runningTask.stage() == task::Stage::Stopped) {
            std::cerr << "syncscope-cli run: " << runningTask.status()->stageReason << '\n';
            return kExitOk;  // task-mode full ends when the load is done
        }
        if (controlServer) {
            // The DBA steers through the API: show each failure once and keep serving.
            bool waiting = runningTask.waitingForDba();
            if (waiting && !failureShown) {
                printFailedEvent(*publishedError(runningTask));
                std::cerr << "  waiting for the DBA on " << controlServer->url() << " (resume, skip, stop)\n";
            }
            failureShown = waiting;
            continue;
        }
        if (!options.until.empty() && runningTask.stage() == task::Stage::Paused) {
            publishedStage(runningTask, task::Stage::Paused);
            std::cerr << "syncscope-cli run: " << commands.status()->stageReason << '\n';  // a kept pause says so
            runningTask.stop();
            runningTask.waitUntilStopped();
            return kExitOk;
        }
        if (runningTask.waitingForDba()) {
            printFailedEvent(*publishedError(runningTask));
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
