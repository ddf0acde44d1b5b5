// syncscope-cli run with several --source files: the task runs as one subtask per source in this process
// (engine/multisource). Nothing starts when a source file is missing, a source-id has no file, or two
// sources would write one downstream table. The loop is the one-source run's: SIGTERM/SIGINT stops every
// subtask gracefully; without --listen an error that needs the DBA ends the run (exit 1) after the other
// subtasks are stopped gracefully; with --listen the API keeps serving.
#include <signal.h>

#include <spdlog/spdlog.h>

#include <ctime>
#include <iostream>
#include <memory>

#include "app/cli/cli_commands.h"
#include "app/cli/run_support.h"
#include "engine/control/control_server.h"
#include "engine/multisource/multi_source_plan.h"
#include "engine/multisource/multi_source_task.h"
#include "engine/multisource/paused_sources.h"
#include "engine/multisource/shard_merge_check.h"
#include "engine/multisource/subtask_previewer.h"

namespace syncscope::cli {

namespace {

void stopAll(multisource::MultiSourceTask& task) {
    task.stop();
    task.waitUntilStopped();
}

// Prints each subtask's failure once (the subtasks that still run are named, so the DBA knows they do).
void printFailures(multisource::MultiSourceTask& task, std::vector<bool>& shown) {
    const auto& subtasks = task.subtasks();
    for (size_t i = 0; i < subtasks.size(); ++i) {
        bool waiting = subtasks[i]->waitingForDba();
        if (waiting && !shown[i]) {
            std::cerr << "syncscope-cli run: source " << subtasks[i]->setup().sourceId << ":\n";
            printFailedEvent(*publishedError(*subtasks[i]));
        }
        shown[i] = waiting;
    }
}

}  // namespace

int runMultiSourceTask(const RunOptions& options) {
    multisource::MultiSourcePlan plan = multisource::loadMultiSourcePlan(options.taskFile, options.sourceFiles);
    const std::string taskName = plan.task.name;
    const std::string auditLogPath = options.logDir + "/" + taskName + "-audit.jsonl";
    for (task::TaskSetup& setup : plan.subtasks) {
        setup.removeMeta = options.removeMeta;  // each subtask removes its own source's rows only
        applyLoadTuning(setup);
        applyConcurrencyChoice(setup);
        setup.auditLogPath = auditLogPath;  // one audit log per task; every entry names its source
    }

    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);

    setUpLogging(options.logDir, taskName);
    spdlog::info("logs in {}/{}.log, operator actions in {}", options.logDir, taskName, auditLogPath);
    for (const std::string& warning : plan.warnings) {
        spdlog::warn("{}", warning);
    }
    for (size_t i = 0; i < plan.subtasks.size(); ++i) {
        const task::TaskSetup& setup = plan.subtasks[i];
        spdlog::info("task {} subtask {} of {}: source {} ({}): upstream {}, target {}", taskName, i + 1,
                     plan.subtasks.size(), setup.sourceId, plan.sourceFiles[i], setup.upstream.describe(),
                     setup.downstream.describe());
    }
    multisource::planShardMerge(plan.subtasks, plan.task.caseSensitive, plan.task.shardMode,
                                plan.task.strictOptimisticShardMode);

    // Sources paused by the DBA stay paused across a restart: kept in the downstream beside the checkpoint, whatever
    // --log-dir a restart is given, with a copy in DIR/<task>-paused-sources.json.
    multisource::MultiSourceTask runningTask(
        plan.subtasks, {multisource::pausedSourcesFileBeside(auditLogPath, taskName), /*inDownstream=*/true});
    std::unique_ptr<control::ControlServer> controlServer;
    if (!options.listen.empty()) {
        control::ControlServerOptions serverOptions = controlServerOptions(options, taskName);
        for (const task::TaskSetup& setup : plan.subtasks) {
            serverOptions.secrets.push_back(setup.upstream.password);
        }
        serverOptions.secrets.push_back(plan.subtasks.front().downstream.password);
        serverOptions.previewer = std::make_shared<multisource::SubtaskPreviewer>(plan.subtasks, options.logDir);
        serverOptions.subtasks = &runningTask;
        controlServer = std::make_unique<control::ControlServer>(runningTask, serverOptions);
        std::cerr << "syncscope-cli run: control API on " << controlServer->url() << '\n';
    }
    task::CommandResult started = runningTask.start();
    spdlog::info("task {}: start: {}", taskName, started.reason);
    if (!started.accepted) {
        std::cerr << "syncscope-cli run: " << started.reason << '\n';
        return kExitFailure;
    }
    timespec poll{0, kSignalPollNanoseconds};
    std::vector<bool> failureShown(runningTask.subtasks().size(), false);
    while (true) {
        int signal = sigtimedwait(&stopSignals, nullptr, &poll);
        if (signal == SIGINT || signal == SIGTERM) {
            spdlog::info("signal {}: stopping every subtask gracefully", signal);
            stopAll(runningTask);
            return kExitOk;
        }
        if (plan.task.taskMode == "full" && runningTask.allStopped()) {
            std::cerr << "syncscope-cli run: " << runningTask.status()->stageReason << '\n';
            return kExitOk;  // task-mode full ends when every source's load is done
        }
        if (controlServer) {
            printFailures(runningTask, failureShown);
            continue;
        }
        if (runningTask.anyWaitingForDba()) {
            printFailures(runningTask, failureShown);
            stopAll(runningTask);
            return kExitFailure;
        }
    }
}

}  // namespace syncscope::cli
