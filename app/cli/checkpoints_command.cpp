// syncscope-cli checkpoints: inspects the checkpoint tables of a downstream read-only (ours or a DM
// deployment's), lists every source's global and table points and flags what a resume would get
// wrong: table points ahead of the global point, points beyond the upstream or in purged files, and
// missing global rows.
#include <nlohmann/json.hpp>

#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "app/cli/checkpoint_printer.h"
#include "app/cli/checkpoints_of_task.h"
#include "app/cli/cli_commands.h"
#include "app/cli/option_reader.h"
#include "app/cli/server_option.h"
#include "app/cli/window_verify.h"
#include "engine/common/state_directory.h"
#include "engine/inspect/checkpoint_inspector.h"

namespace syncscope::cli {
namespace {

constexpr int kJsonIndent = 2;

const char* const kCheckpointsUsage =
    "Usage: syncscope-cli checkpoints --target HOST:PORT --user U --password-file F\n"
    "         [--meta-schema dm_meta] [--task NAME]\n"
    "         [--upstream HOST:PORT --upstream-user U --upstream-password-file F [--source-id ID]]\n"
    "         [--json] [--verify [--repair] [--log-dir DIR]]\n"
    "       syncscope-cli checkpoints TASK.yaml --source SOURCE.yaml [--source SOURCE2.yaml ...]\n"
    "         [--json] [--verify [--repair] [--log-dir DIR]]\n"
    "Reads <meta-schema>.<task>_syncer_checkpoint (every such table without --task) read-only and lists\n"
    "every source's global and table points. Flags table points ahead of the global point (with the\n"
    "window a resume would skip), a missing global row, and with --upstream points beyond the\n"
    "upstream's position or in binlog files it no longer has (--source-id: only that source is the\n"
    "upstream's). Exit 0 when the tables were read (anomalies or not), 1 on an error, 2 on bad usage.\n"
    "--verify (needs --upstream; its user needs REPLICATION SLAVE): for every table point ahead of the\n"
    "global point, decodes the upstream's binlog between the two points, keeps the final image of every\n"
    "row of that table changed there and checks each against the downstream (equal, missing, different,\n"
    "not deleted). --repair then writes the final images of the wrong rows (audited in\n"
    "DIR/<task>-audit.jsonl; DIR defaults to $XDG_STATE_HOME/syncscope/logs, the folder `run` uses)\n"
    "and checks again. With --verify: exit 0 when every window's rows are right, 1 when some are\n"
    "wrong, 2 on an error.\n"
    "TASK.yaml --source ...: the task's own table on its target, a section per source (one --source per\n"
    "mysql-instances entry), each source's points checked against its own upstream (from its file), then\n"
    "the whole task's anomaly count; rows of source ids the task has no file for are named.\n";

struct CheckpointsOptions {
    inspect::InspectionRequest request;
    std::string targetAddress;
    std::string passwordFile;
    std::string upstreamAddress;
    std::string upstreamUser;
    std::string upstreamPasswordFile;
    std::string taskFile;  // TASK.yaml --source ...: the task's own table, each source against its own upstream
    std::vector<std::string> sourceFiles;
    bool json = false;
    bool verify = false;
    bool repair = false;
    std::string logDir = defaultLogDirectory();
};

CheckpointsOptions parseOptions(std::span<char*> args) {
    CheckpointsOptions options;
    OptionReader()
        .value("--target", options.targetAddress)
        .value("--user", options.request.target.user)
        .value("--password-file", options.passwordFile)
        .value("--meta-schema", options.request.metaSchema)
        .value("--task", options.request.task)
        .value("--upstream", options.upstreamAddress)
        .value("--upstream-user", options.upstreamUser)
        .value("--upstream-password-file", options.upstreamPasswordFile)
        .value("--source-id", options.request.upstreamSourceId)
        .repeated("--source", options.sourceFiles)
        .flag("--json", options.json)
        .flag("--verify", options.verify)
        .flag("--repair", options.repair)
        .value("--log-dir", options.logDir)
        .argument(options.taskFile, "more than one task file given")
        .read(args);
    if (options.repair && !options.verify) {
        throw UsageError("--repair needs --verify");
    }
    if (!options.taskFile.empty() || !options.sourceFiles.empty()) {
        if (options.taskFile.empty() || options.sourceFiles.empty()) {
            throw UsageError("a task's checkpoints need TASK.yaml and --source SOURCE.yaml (one per source)");
        }
        if (!options.targetAddress.empty() || !options.upstreamAddress.empty() || !options.request.task.empty() ||
            !options.request.upstreamSourceId.empty()) {
            throw UsageError(
                "give either TASK.yaml --source SOURCE.yaml ... (the servers come from the files) or --target ...");
        }
        return options;
    }
    if (options.targetAddress.empty() || options.request.target.user.empty() || options.passwordFile.empty()) {
        throw UsageError("--target, --user and --password-file are required (or TASK.yaml --source SOURCE.yaml)");
    }
    if (options.request.metaSchema.empty()) {
        throw UsageError("--meta-schema must not be empty");
    }
    if (options.verify && options.upstreamAddress.empty()) {
        throw UsageError("--verify needs --upstream: the window is decoded from the upstream's binlog");
    }
    bool anyUpstream =
        !options.upstreamAddress.empty() || !options.upstreamUser.empty() || !options.upstreamPasswordFile.empty();
    if (anyUpstream &&
        (options.upstreamAddress.empty() || options.upstreamUser.empty() || options.upstreamPasswordFile.empty())) {
        throw UsageError("--upstream, --upstream-user and --upstream-password-file go together");
    }
    if (!anyUpstream && !options.request.upstreamSourceId.empty()) {
        throw UsageError("--source-id needs --upstream");
    }
    return options;
}

// The servers of --target and --upstream, passwords read from their files: ServerOptionError for a bad
// HOST:PORT (bad usage), Error for a password file that cannot be read.
void resolveServers(CheckpointsOptions& options) {
    const std::string user = options.request.target.user;
    options.request.target = serverFromOptions("--target", options.targetAddress, user, options.passwordFile);
    if (!options.upstreamAddress.empty()) {
        options.request.upstream = serverFromOptions("--upstream", options.upstreamAddress, options.upstreamUser,
                                                     options.upstreamPasswordFile);
    }
}

int runCheckpoints(std::span<char*> args) {
    if (asksForHelp(args)) {
        std::cout << kCheckpointsUsage;
        return kExitOk;
    }
    CheckpointsOptions options;
    try {
        options = parseOptions(args);
        if (!options.taskFile.empty()) {
            return runTaskCheckpoints({options.taskFile, options.sourceFiles, options.json, options.verify,
                                       options.repair, options.logDir});  // checkpoints_of_task.cpp
        }
        resolveServers(options);
    } catch (const UsageError& e) {
        std::cerr << "syncscope-cli checkpoints: " << e.what() << "\n" << kCheckpointsUsage;
        return kExitUsage;
    } catch (const ServerOptionError& e) {
        std::cerr << "syncscope-cli checkpoints: " << e.what() << "\n" << kCheckpointsUsage;
        return kExitUsage;
    } catch (const std::exception& e) {
        std::cerr << "syncscope-cli checkpoints: " << e.what() << '\n';
        return kExitFailure;
    }
    try {
        inspect::InspectionReport report = inspect::inspectCheckpoints(options.request);
        if (!options.verify) {
            if (options.json) {
                std::cout << inspectionJson(report).dump(kJsonIndent) << '\n';
            } else {
                printInspection(report, std::cout);
            }
            return kExitOk;
        }
        if (!options.json) {
            printInspection(report, std::cout);
            std::cout << "\nskip windows verified row by row:\n";
        }
        WindowVerifyOptions verifyOptions{options.request.target, *options.request.upstream, options.repair,
                                          options.logDir};
        WindowVerifyOutcome outcome = verifySkipWindows(report, verifyOptions, options.json ? nullptr : &std::cout);
        if (options.json) {
            nlohmann::json out = inspectionJson(report);
            out["window_verifications"] = outcome.json;
            std::cout << out.dump(kJsonIndent, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        } else {
            std::cout << outcome.windows << " windows, " << outcome.wrongRows << " wrong rows, " << outcome.failed
                      << " not verifiable\n";
        }
        return windowVerifyExitCode(outcome);
    } catch (const std::exception& e) {
        std::cerr << "syncscope-cli checkpoints: " << e.what() << '\n';
        return kExitFailure;
    }
}

const CommandRegistration kCheckpointsCommand({"checkpoints",
                                               "inspect checkpoint tables (ours or DM's) and flag unsafe points",
                                               runCheckpoints});

}  // namespace
}  // namespace syncscope::cli
