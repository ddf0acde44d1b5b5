// syncscope-cli verify: is the downstream right? Compares every table the task replicates (filters and
// routes applied) with the upstream, chunk by chunk by checksums the servers compute, then row by row
// where a chunk differs; lists every missing, extra and different row; with --repair fixes them and
// checks again. Safe beside the running task: a differing row is confirmed with its upstream row locked
// once the task has applied up to the locked point (README "Verify and repair").
#include <signal.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>

#include "app/cli/cli_commands.h"
#include "app/cli/option_reader.h"
#include "app/cli/verify_report_printer.h"
#include "app/cli/verify_task_progress.h"
#include "engine/common/state_directory.h"
#include "engine/task/audit_log.h"
#include "engine/task/task_setup_builder.h"
#include "engine/verify/difference_json.h"
#include "engine/verify/task_verifier.h"
#include "engine/verify/verify_summary.h"

namespace syncscope::cli {
namespace {

constexpr int kJsonIndent = 2;
constexpr int kExitDifferent = 1;
constexpr int kExitError = 2;

const char* const kVerifyUsage =
    "Usage: syncscope-cli verify TASK.yaml --source SOURCE.yaml [--json] [--table DB.TABLE]...\n"
    "         [--repair [--confirm-keyless]] [--repair-sql FILE] [--log-dir DIR]\n"
    "         [--control [https://]HOST:PORT [--ca FILE] [--token-file F]] [--settle-seconds N]\n"
    "         [--chunk-time MS] [--max-threads-running N] [--parallel-tables N] [--walk-keys] [--progress]\n"
    "Compares every table the task replicates (block-allow list and routes applied) upstream against\n"
    "downstream: key-range chunks checksummed by both servers at once, then row by row where a chunk\n"
    "differs. Lists each missing, extra and different row with its key and the differing columns.\n"
    "Tables without a key are compared by counts of equal rows.\n"
    "While the task runs, a differing row is confirmed with the upstream row locked (LOCK IN SHARE MODE)\n"
    "once the task has applied up to the upstream's position: rows in flight are never reported. Where\n"
    "the task stands comes from --control (its `run --listen` API: live) or else from its persisted\n"
    "checkpoint (as fresh as the last flush); --settle-seconds (default 30) bounds the wait, after which a\n"
    "row is reported as UNSETTLED.\n"
    "--repair prints the SQL that makes the downstream equal (INSERT, UPDATE, DELETE by key, values\n"
    "bound), applies it while the rows are locked upstream, writes each repair to DIR/<task>-audit.jsonl\n"
    "(DIR defaults to $XDG_STATE_HOME/syncscope/logs, ~/.local/state/syncscope/logs, the folder `run`\n"
    "uses) and compares the repaired rows again. Tables without a key are\n"
    "repaired only with --confirm-keyless. --repair-sql FILE saves the SQL (with or without --repair).\n"
    "Each run leaves its per-table summary in DIR/<task>-verify.json, which `run --listen` with the same\n"
    "--log-dir serves in its status (\"verify\") and metrics (syncscope_verify_*).\n"
    "--chunk-time: the time one chunk should take on the upstream (default 250); --max-threads-running:\n"
    "pause while the upstream runs more threads than this (default 25, 0: never); --parallel-tables: tables\n"
    "compared at the same time, each on connections of its own (default 2; 1: one after another; a repair\n"
    "that is applied goes one table at a time).\n"
    "A key of one integer column whose values are dense (a row per 4 values or more) is cut into chunks by\n"
    "value, so no server walks it; --walk-keys: end every chunk where a walk of the key says instead.\n"
    "Exit 0 when every table is equal, 1 when differences were found, 2 on an error (a table that could\n"
    "not be compared, a server out of reach, bad usage).\n";

struct VerifyOptions {
    std::string taskFile;
    std::string sourceFile;
    bool json = false;
    bool repair = false;
    bool confirmKeyless = false;
    bool progress = false;
    std::string repairSqlFile;
    std::string logDir = defaultLogDirectory();  // the folder `run` writes to, so both share the audit log
    std::string control;
    std::string caFile;
    std::string tokenFile;
    std::vector<schema::TableName> tables;
    verify::VerifySettings settings;
};

std::atomic<bool> cancelRequested{false};

void onSignal(int) {
    cancelRequested.store(true);
}

VerifyOptions parseOptions(std::span<char*> args) {
    VerifyOptions options;
    OptionReader()
        .value("--source", options.sourceFile)
        .flag("--json", options.json)
        .flag("--repair", options.repair)
        .flag("--confirm-keyless", options.confirmKeyless)
        .flag("--progress", options.progress)
        .flag("--walk-keys", options.settings.chunkByKeyValue, false)
        .value("--repair-sql", options.repairSqlFile)
        .value("--log-dir", options.logDir)
        .value("--control", options.control)
        .value("--ca", options.caFile)
        .value("--token-file", options.tokenFile)
        .value("--table",
               [&options](const std::string& text) {
                   auto dot = text.find('.');
                   if (dot == std::string::npos || dot == 0 || dot + 1 == text.size()) {
                       throw UsageError("--table needs DB.TABLE, not '" + text + "'");
                   }
                   options.tables.push_back({text.substr(0, dot), text.substr(dot + 1)});
               })
        .value("--settle-seconds",
               [&options](const std::string& text) {
                   options.settings.settleTimeout = std::chrono::seconds(wholeNumberOption("--settle-seconds", text));
               })
        .value("--chunk-time",
               [&options](const std::string& text) {
                   int ms = wholeNumberOption("--chunk-time", text);
                   if (ms == 0) {
                       throw UsageError("--chunk-time must be at least 1 ms");
                   }
                   options.settings.chunkTime = std::chrono::milliseconds(ms);
               })
        .value("--max-threads-running",
               [&options](const std::string& text) {
                   options.settings.maxThreadsRunning = wholeNumberOption("--max-threads-running", text);
               })
        .value("--parallel-tables",
               [&options](const std::string& text) {
                   int tables = wholeNumberOption("--parallel-tables", text);
                   if (tables == 0) {
                       throw UsageError("--parallel-tables must be at least 1");
                   }
                   options.settings.parallelTables = static_cast<size_t>(tables);
               })
        .argument(options.taskFile, "more than one task file given")
        .read(args);
    if (options.taskFile.empty() || options.sourceFile.empty()) {
        throw UsageError("verify needs TASK.yaml and --source SOURCE.yaml");
    }
    if (options.confirmKeyless && !options.repair) {
        throw UsageError("--confirm-keyless needs --repair");
    }
    if ((!options.tokenFile.empty() || !options.caFile.empty()) && options.control.empty()) {
        throw UsageError("--token-file and --ca need --control");
    }
    return options;
}

verify::RepairOptions repairOptions(const VerifyOptions& options, const task::TaskSetup& setup, task::AuditLog& audit) {
    verify::RepairOptions repair;
    repair.apply = options.repair;
    repair.applyKeyless = options.confirmKeyless;
    repair.sessionVariables.assign(setup.downstreamSession.begin(), setup.downstreamSession.end());
    repair.beforeApply = [&audit, &setup](const verify::ComparedTable& table,
                                          const std::vector<verify::RowDifference>& differences,
                                          const verify::RepairPlan& plan) {
        task::AuditEntry entry;
        entry.action = "verify-repair";
        entry.task = setup.taskName;
        entry.sourceId = setup.sourceId;
        entry.details = verify::repairAuditDetails(table, differences, plan);
        audit.append(entry);
    };
    return repair;
}

void writeRepairSql(const std::string& file, const verify::VerifyReport& report) {
    std::ofstream out(file, std::ios::trunc);
    for (const auto& table : report.tables) {
        if (table.repair && !table.repair->sql.empty()) {
            out << "-- " << table.downstream.text() << " (from upstream " << table.upstream.text()
                << "): " << table.differences.size() << " differences\n"
                << table.repair->sql;
        }
    }
    if (!out) {
        throw std::runtime_error("cannot write the repair SQL to '" + file + "'");
    }
}

int runVerify(std::span<char*> args) {
    if (asksForHelp(args)) {
        std::cout << kVerifyUsage;
        return kExitOk;
    }
    VerifyOptions options;
    try {
        options = parseOptions(args);
    } catch (const UsageError& e) {
        std::cerr << "syncscope-cli verify: " << e.what() << "\n" << kVerifyUsage;
        return kExitUsage;
    }
    try {
        config::TaskConfig taskConfig = config::loadTaskConfig(options.taskFile);
        config::SourceConfig sourceConfig = config::loadSourceConfig(options.sourceFile);
        std::vector<std::string> warnings;
        task::TaskSetup setup = task::makeTaskSetup(taskConfig, sourceConfig, warnings);

        verify::VerifyTarget target{setup.upstream, setup.downstream, setup.blockAllow, setup.router, options.tables};
        auto progress = options.control.empty()
                            ? checkpointProgress(setup.downstream, setup.metaSchema, setup.taskName, setup.sourceId)
                            : controlApiProgress(options.control, options.caFile, options.tokenFile);
        verify::TaskVerifier verifier(target, options.settings, *progress);
        verifier.setCancelFlag(&cancelRequested);
        signal(SIGINT, onSignal);
        signal(SIGTERM, onSignal);
        if (options.progress) {
            verifier.setProgressHandler([](size_t index, size_t count, const verify::TableVerifyResult& result) {
                std::cerr << "[" << index + 1 << "/" << count << "] " << result.upstream.text() << ": "
                          << result.chunksDone << "/" << result.chunksTotal << " chunks, " << result.rowsCompared
                          << " rows, " << result.differences.size() << " differences\n";
            });
        }
        std::unique_ptr<task::AuditLog> audit;
        if (options.repair || !options.repairSqlFile.empty()) {
            std::filesystem::create_directories(options.logDir);
            audit = std::make_unique<task::AuditLog>(
                options.repair ? options.logDir + "/" + setup.taskName + "-audit.jsonl" : std::string());
            verifier.setRepair(repairOptions(options, setup, *audit));
        }
        verify::VerifyReport report = verifier.run();
        // The running task's control API serves this file in its status and metrics.
        std::filesystem::create_directories(options.logDir);
        verify::saveVerifySummary(options.logDir + "/" + setup.taskName + "-verify.json",
                                  verify::verifySummary(report));
        if (!options.repairSqlFile.empty()) {
            writeRepairSql(options.repairSqlFile, report);
        }
        if (options.json) {
            std::cout << verifyReportJson(report).dump(kJsonIndent, ' ', false,
                                                       nlohmann::json::error_handler_t::replace)
                      << '\n';
        } else {
            printVerifyReport(report, std::cout);
        }
        if (report.failedTables() > 0 || report.cancelled) {
            return kExitError;
        }
        return report.differenceCount() > 0 ? kExitDifferent : kExitOk;
    } catch (const std::exception& e) {
        std::cerr << "syncscope-cli verify: " << e.what() << '\n';
        return kExitError;
    }
}

const CommandRegistration kVerifyCommand({"verify", "compare the task's tables upstream vs downstream; --repair",
                                          runVerify});

}  // namespace
}  // namespace syncscope::cli
