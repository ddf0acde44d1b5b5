// syncscope-cli status: where a task stands without a running engine. Reads the task's persisted
// checkpoint (global, exit-safe and table points) and the upstream's current position and shows them
// side by side: how far the checkpoint is behind in bytes and files, and which table points run ahead
// of the global point, with the window of events a resume would skip for them.
#include <nlohmann/json.hpp>

#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "app/cli/checkpoint_printer.h"
#include "app/cli/cli_commands.h"
#include "app/cli/option_reader.h"
#include "app/cli/source_checkpoint.h"
#include "engine/common/state_directory.h"
#include "engine/control/status_json.h"
#include "engine/inspect/checkpoint_analyzer.h"
#include "engine/multisource/paused_sources.h"
#include "engine/task/shard_ddl_locks.h"

namespace syncscope::cli {
namespace {

constexpr int kJsonIndent = 2;

const char* const kStatusUsage =
    "Usage: syncscope-cli status TASK.yaml --source SOURCE.yaml [--source SOURCE2.yaml ...] [--json]\n"
    "         [--log-dir DIR]\n"
    "Shows where the task stands without a running engine: its persisted checkpoint (global point,\n"
    "exit-safe point, table points) beside the upstream's current position, the distance between\n"
    "them in bytes and binlog files, and every table point ahead of the global point with the events\n"
    "a resume would skip, and the online schema changes (pt-osc, gh-ost) recorded with it, whose DDLs\n"
    "run at the tool's swap. Reads the checkpoint table and the upstream read-only.\n"
    "A task with several sources (one --source file per mysql-instances entry) gets a line for the\n"
    "whole task, then one section per source, each checked against that source's own upstream, and\n"
    "whether the DBA paused it (kept in <meta-schema>.<task>_syncscope_paused_sources on the downstream, and a\n"
    "copy in DIR/<task>-paused-sources.json for a pause the downstream did not get: a start leaves such a\n"
    "source paused; DIR defaults to `run`'s). A task with one source says the same of its one source.\n"
    "Exit 0 when both were read (anomalies are reported, not failed), 1 when the configs, the\n"
    "downstream or an upstream could not be read, 2 on bad usage.\n";

struct StatusOptions {
    std::string taskFile;
    std::vector<std::string> sourceFiles;
    bool json = false;
    std::string logDir = defaultLogDirectory();
};

using StatusReport = SourceCheckpoint;

StatusOptions parseOptions(std::span<char*> args) {
    StatusOptions options;
    OptionReader()
        .repeated("--source", options.sourceFiles)
        .flag("--json", options.json)
        .value("--log-dir", options.logDir)
        .argument(options.taskFile, "more than one task file given")
        .read(args);
    if (options.taskFile.empty() || options.sourceFiles.empty()) {
        throw UsageError("status needs TASK.yaml and --source SOURCE.yaml");
    }
    return options;
}

std::string dmText(const binlog::Location& location) {
    return location.position().isEmpty()
               ? std::string()
               : "(" + location.position().file() + ", " + std::to_string(location.position().offset()) + ")";
}

nlohmann::json optionalJson(const std::optional<int64_t>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

bool hasAnomaly(const inspect::InspectedPoint& point, inspect::AnomalyKind kind) {
    for (const auto& anomaly : point.anomalies) {
        if (anomaly.kind == kind) {
            return true;
        }
    }
    return false;
}

nlohmann::json toJson(const StatusReport& report) {
    const auto& setup = report.setup;
    nlohmann::json out{{"task", setup.taskName},
                       {"source_id", setup.sourceId},
                       {"checkpoint_table", setup.metaSchema + "." + setup.taskName + "_syncer_checkpoint"},
                       {"target", report.inspection.target},
                       {"checkpoint_problem", report.checkpointProblem},
                       {"upstream_error", report.upstreamError}};
    const auto& upstream = report.inspection.upstream;
    binlog::Location current = upstream ? upstream->current : binlog::Location();
    out["master_binlog"] = dmText(current);
    out["master_binlog_gtid"] = current.gtidText();
    if (upstream) {
        nlohmann::json files = nlohmann::json::array();
        for (const auto& file : upstream->files) {
            files.push_back({{"name", file.file}, {"size", file.size}});
        }
        out["upstream"] = {{"server", upstream->server}, {"position", locationJson(current)}, {"files", files}};
    } else {
        out["upstream"] = nullptr;
    }
    const inspect::InspectedSource* source = report.source ? &*report.source : nullptr;
    const inspect::InspectedPoint* global = source && source->global ? &*source->global : nullptr;
    binlog::Location globalPoint = global ? global->location : binlog::Location();
    out["syncer_binlog"] = dmText(globalPoint);
    out["syncer_binlog_gtid"] = globalPoint.gtidText();
    out["global"] = locationJson(globalPoint);
    out["exit_safe"] = global ? locationJson(global->exitSafePoint) : nlohmann::json(nullptr);
    out["global_update_time"] = global ? nlohmann::json(global->row.updateTime) : nlohmann::json(nullptr);
    out["behind_upstream"] = {{"bytes", optionalJson(report.distance.bytes)},
                              {"files", optionalJson(report.distance.files)}};
    out["synced"] = report.distance.synced();
    nlohmann::json tables = nlohmann::json::array();
    size_t anomalies = 0;
    if (source) {
        anomalies = source->anomalyCount();
        for (const auto& point : source->tables) {
            tables.push_back({{"schema", point.row.schema},
                              {"table", point.row.table},
                              {"point", locationJson(point.location)},
                              {"ahead_of_global", hasAnomaly(point, inspect::AnomalyKind::TableAheadOfGlobal)},
                              {"update_time", point.row.updateTime},
                              {"anomalies", anomaliesJson(point.anomalies)}});
        }
        out["source_anomalies"] = anomaliesJson(source->anomalies);
        if (global) {
            out["global_anomalies"] = anomaliesJson(global->anomalies);
        }
    }
    out["tables"] = tables;
    out["anomalies"] = anomalies;
    nlohmann::json online = nlohmann::json::array();
    for (const auto& change : report.onlineChanges) {
        online.push_back({{"schema", change.realSchema},
                          {"table", change.realTable},
                          {"shadow_table", change.shadowTable},
                          {"ddls", change.ddls}});
    }
    out["online_schema_changes"] = online;
    out["online_schema_changes_problem"] = report.onlineProblem;
    out["shard_locks"] = control::shardLocksJson(report.shardLocks);
    nlohmann::json dm = nlohmann::json::array();
    for (const auto& group : report.dmShardingGroups) {
        nlohmann::json item = {{"target", group.target},
                               {"active_index", group.activeIndex},
                               {"unresolved", group.unresolved()},
                               {"tables_at_active_ddl", group.tablesAtActiveDdl()}};
        if (group.unresolved()) {
            const inspect::DmShardDdl& active = group.global[static_cast<size_t>(group.activeIndex)];
            item["active_ddls"] = active.ddls;
            item["first_read_at"] = active.file + ":" + std::to_string(active.pos);
            item["first_read_by"] = active.source;
        }
        dm.push_back(std::move(item));
    }
    out["dm_sharding_groups"] = dm;
    nlohmann::json columns = nlohmann::json::array();
    for (const auto& column : report.shardColumns) {
        nlohmann::json since = nlohmann::json::array();
        for (const auto& shard : column.reachedBy) {
            since.push_back(control::shardTableJson(shard.sourceId, shard.table));
        }
        columns.push_back({{"target_schema", column.target.schema},
                           {"target_table", column.target.table},
                           {"column", column.column},
                           {"added_by", control::shardTableJson(column.addedBy.sourceId, column.addedBy.table)},
                           {"added_since_by", std::move(since)}});
    }
    out["shard_columns"] = columns;
    out["shard_locks_problem"] = report.shardProblem;
    return out;
}

void printAnomalies(const std::vector<inspect::CheckpointAnomaly>& anomalies, std::ostream& out) {
    for (const auto& anomaly : anomalies) {
        out << "      ! " << inspect::anomalyName(anomaly.kind) << ": " << anomaly.message << '\n';
        if (anomaly.skipWindow) {
            out << "        a resume would skip this table's events after " << anomaly.skipWindow->from.toString()
                << " up to " << anomaly.skipWindow->to.toString() << " ("
                << inspect::describeSkipWindow(*anomaly.skipWindow) << ")\n";
        }
    }
}

// The online schema changes recorded with the checkpoint: what the next swap of each runs downstream.
void printOnlineChanges(const StatusReport& report, std::ostream& out) {
    if (!report.onlineProblem.empty()) {
        out << "  ! online DDL table: " << report.onlineProblem << '\n';
    }
    if (report.onlineChanges.empty()) {
        return;
    }
    out << "  online schema changes recorded (their DDLs run at the tool's swap): " << report.onlineChanges.size()
        << '\n';
    for (const auto& change : report.onlineChanges) {
        out << "    " << change.realSchema << "." << change.realTable << "  shadow " << change.shadowTable << " ("
            << filter::OnlineDdlRules::toolOf(change.shadowTable) << "), " << change.ddls.size()
            << (change.ddls.size() == 1 ? " DDL" : " DDLs") << '\n';
        for (const auto& ddl : change.ddls) {
            out << "      " << ddl << '\n';
        }
    }
}

// The shard DDL locks kept beside the checkpoint that name this source: why its tables may be ahead of its global
// point.
void printShardLocks(const StatusReport& report, std::ostream& out) {
    if (!report.shardProblem.empty()) {
        out << "  ! shard DDL locks: " << report.shardProblem << '\n';
    }
    for (const auto& lock : report.shardLocks) {
        out << "  shard DDL lock on " << lock.target.text() << ": "
            << (lock.ranDownstream ? "ran downstream, shard tables still to pass it:"
                                   : "waiting (the source's global point holds before it; its other tables may be "
                                     "ahead)")
            << '\n';
        for (const auto& ddl : lock.ddls) {
            out << "      " << ddl << '\n';
        }
        for (const auto& shard : lock.arrived) {
            out << "    read it   " << shard.sourceId << ":" << shard.table.text() << " at " << shard.position << '\n';
        }
        for (const auto& shard : lock.waitingFor) {
            out << "    waited for " << shard.sourceId << ":" << shard.table.text() << '\n';
        }
    }
    for (const auto& column : report.shardColumns) {
        out << "  shard column " << column.column << " of " << column.target.text() << " (optimistic): added by "
            << column.addedBy.text();
        for (const auto& shard : column.reachedBy) {
            out << ", then " << shard.text();
        }
        out << "; the merged table's other shard tables lack it (their rows take its default)\n";
    }
}

void printText(const StatusReport& report, std::ostream& out) {
    const auto& setup = report.setup;
    out << "task " << setup.taskName << " (source " << setup.sourceId << "), checkpoint table `" << setup.metaSchema
        << "`.`" << setup.taskName << "_syncer_checkpoint` on " << report.inspection.target << '\n';
    const auto& upstream = report.inspection.upstream;
    if (upstream) {
        out << "  upstream    " << upstream->current.toString() << "  (" << upstream->server << ", "
            << upstream->files.size() << " binlog files";
        if (!upstream->files.empty()) {
            out << ": " << upstream->files.front().file << " .. " << upstream->files.back().file;
        }
        out << ")\n";
    } else {
        out << "  upstream    unreadable: " << report.upstreamError << '\n';
    }
    if (!report.checkpointProblem.empty()) {
        out << "  ! checkpoint table: " << report.checkpointProblem << '\n';
    }
    const inspect::InspectedSource* source = report.source ? &*report.source : nullptr;
    if (!source) {
        out << "  no persisted checkpoint for this source: a start begins at the task's meta, else at the upstream's "
               "current position\n";
        return;
    }
    printAnomalies(source->anomalies, out);
    if (source->global) {
        const auto& global = *source->global;
        out << "  global      " << global.location.toString() << "  (" << report.distance.text() << "; persisted "
            << global.row.updateTime << ")\n";
        printAnomalies(global.anomalies, out);
        out << "  exit-safe   "
            << (global.exitSafePoint.isEmpty() ? std::string("(none)") : global.exitSafePoint.toString())
            << "  (after a resume, safe mode stays on until the stream passes it)\n";
    }
    out << "  table points: " << source->tables.size() << '\n';
    const task::ShardLockStatus* holding = task::lockHoldingSource(report.shardLocks, report.setup.sourceId);
    const inspect::DmShardingGroup* dmHolding = nullptr;
    for (const auto& group : report.dmShardingGroups) {
        dmHolding = dmHolding != nullptr || !group.unresolved() ? dmHolding : &group;
    }
    for (const auto& point : source->tables) {
        bool ahead = hasAnomaly(point, inspect::AnomalyKind::TableAheadOfGlobal);
        out << "    " << (ahead ? "! " : "  ") << point.row.schema << "." << point.row.table << "  "
            << point.location.toString() << (ahead ? "  AHEAD OF THE GLOBAL POINT" : "") << '\n';
        if (ahead && holding != nullptr) {
            out << "      expected while the shard DDL lock on " << holding->target.text()
                << " holds this source's global point before its DDL (DM's re-sync reads from there)\n";
        } else if (ahead && dmHolding != nullptr) {
            out << "      expected while DM's sharding DDL lock on " << dmHolding->target
                << " is unresolved: DM holds the global point before its first DDL\n";
        }
        printAnomalies(point.anomalies, out);
    }
    printOnlineChanges(report, out);
    printShardLocks(report, out);
    for (const auto& group : report.dmShardingGroups) {
        if (!group.unresolved()) {
            continue;
        }
        const inspect::DmShardDdl& active = group.global[static_cast<size_t>(group.activeIndex)];
        out << "  DM's sharding DDL lock on " << group.target << " is unresolved (DM's sharding meta): DDL "
            << group.activeIndex + 1 << " of " << group.global.size() << ", first read by " << active.source << " at "
            << active.file << ":" << active.pos << '\n';
        for (const auto& ddl : active.ddls) {
            out << "      " << ddl << '\n';
        }
        std::string tables;
        for (const auto& table : group.tablesAtActiveDdl()) {
            tables += (tables.empty() ? "" : ", ") + table;
        }
        out << "    shard tables of this source that read it: " << tables << '\n';
    }
    size_t anomalies = source->anomalyCount();
    out << anomalies << (anomalies == 1 ? " anomaly" : " anomalies") << '\n';
}

// The whole task in one line: how many sources are synced, which are behind and by how much, anomalies.
struct WholeTask {
    size_t synced = 0;
    size_t withoutCheckpoint = 0;
    size_t unreadableUpstreams = 0;
    size_t anomalies = 0;
    std::vector<std::string> behind;  // "ms-a 120 bytes, 0 files"
};

WholeTask wholeTask(const std::vector<StatusReport>& reports) {
    WholeTask whole;
    for (const StatusReport& report : reports) {
        whole.anomalies += report.anomalyCount();
        if (!report.upstreamError.empty()) {
            ++whole.unreadableUpstreams;
        }
        if (!report.source || !report.source->global) {
            ++whole.withoutCheckpoint;
        } else if (report.distance.synced()) {
            ++whole.synced;
        } else {
            whole.behind.push_back(report.setup.sourceId + " " + report.distance.text());
        }
    }
    return whole;
}

// Since when each source has been paused by the DBA (remembered across restarts); empty when it is not.
std::vector<std::string> pausedSince(const std::vector<StatusReport>& reports, const std::string& logDir,
                                     std::ostream& warnings) {
    std::vector<std::string> since(reports.size());
    const std::string taskName = reports.front().setup.taskName;
    try {
        const task::TaskSetup& first = reports.front().setup;
        const multisource::PausedSourcesTable table(first.downstream, first.metaSchema, taskName);
        const std::map<std::string, std::string> paused =
            multisource::PausedSources::readWithoutWriting(logDir + "/" + taskName + "-paused-sources.json", &table);
        for (size_t i = 0; i < reports.size(); ++i) {
            auto found = paused.find(reports[i].setup.sourceId);
            since[i] = found == paused.end() ? std::string() : found->second;
        }
    } catch (const std::exception& e) {
        warnings << "syncscope-cli status: " << e.what() << '\n';
    }
    return since;
}

void printWholeTask(const std::vector<StatusReport>& reports, std::ostream& out) {
    const WholeTask whole = wholeTask(reports);
    const StatusReport& first = reports.front();
    out << "task " << first.setup.taskName << ": " << reports.size() << " sources, " << whole.synced << " synced";
    if (whole.withoutCheckpoint > 0) {
        out << ", " << whole.withoutCheckpoint << " without a persisted checkpoint";
    }
    if (whole.unreadableUpstreams > 0) {
        out << ", " << whole.unreadableUpstreams << " upstream(s) unreadable";
    }
    out << ", " << whole.anomalies << (whole.anomalies == 1 ? " anomaly" : " anomalies") << "; checkpoint table "
        << first.checkpointTable() << " on " << first.inspection.target << '\n';
    for (const std::string& behind : whole.behind) {
        out << "  behind: source " << behind << '\n';
    }
}

nlohmann::json wholeTaskJson(const std::vector<StatusReport>& reports, const std::vector<std::string>& pausedSince) {
    const WholeTask whole = wholeTask(reports);
    nlohmann::json sources = nlohmann::json::array();
    for (size_t i = 0; i < reports.size(); ++i) {
        const StatusReport& report = reports[i];
        nlohmann::json section = toJson(report);
        section["source_file"] = report.sourceFile;
        section["paused_by_dba_since"] =
            pausedSince[i].empty() ? nlohmann::json(nullptr) : nlohmann::json(pausedSince[i]);
        sources.push_back(std::move(section));
    }
    return {{"task", reports.front().setup.taskName},
            {"checkpoint_table",
             reports.front().setup.metaSchema + "." + reports.front().setup.taskName + "_syncer_checkpoint"},
            {"target", reports.front().inspection.target},
            {"whole_task",
             {{"sources", reports.size()},
              {"synced", whole.synced == reports.size()},
              {"sources_synced", whole.synced},
              {"sources_without_checkpoint", whole.withoutCheckpoint},
              {"upstreams_unreadable", whole.unreadableUpstreams},
              {"anomalies", whole.anomalies}}},
            {"sources", sources}};
}

int runStatus(std::span<char*> args) {
    if (asksForHelp(args)) {
        std::cout << kStatusUsage;
        return kExitOk;
    }
    StatusOptions options;
    try {
        options = parseOptions(args);
    } catch (const UsageError& e) {
        std::cerr << "syncscope-cli status: " << e.what() << "\n" << kStatusUsage;
        return kExitUsage;
    }
    try {
        TaskSources sources = loadTaskSources(options.taskFile, options.sourceFiles);
        std::vector<StatusReport> reports;
        for (size_t i = 0; i < sources.setups.size(); ++i) {
            reports.push_back(readSourceCheckpoint(sources.setups[i], sources.sourceFiles[i]));
        }
        const bool severalSources = reports.size() > 1;
        // A task with one source keeps its pause across restarts too (engine/multisource/single_source_task.h).
        const std::vector<std::string> paused = pausedSince(reports, options.logDir, std::cerr);
        if (options.json) {
            nlohmann::json answer = severalSources ? wholeTaskJson(reports, paused) : toJson(reports.front());
            if (!severalSources) {
                answer["paused_by_dba_since"] =
                    paused.front().empty() ? nlohmann::json(nullptr) : nlohmann::json(paused.front());
            }
            std::cout << answer.dump(kJsonIndent) << '\n';
        } else if (severalSources) {
            printWholeTask(reports, std::cout);
            for (size_t i = 0; i < reports.size(); ++i) {
                std::cout << '\n';
                printText(reports[i], std::cout);
                if (!paused[i].empty()) {
                    std::cout << "  paused by the DBA since " << paused[i]
                              << " (remembered: a start of the task leaves this source paused until it is resumed)\n";
                }
            }
        } else {
            printText(reports.front(), std::cout);
            if (!paused.front().empty()) {
                std::cout << "  paused by the DBA since " << paused.front()
                          << " (remembered: a start of the task leaves it paused until it is resumed)\n";
            }
        }
        int exitCode = kExitOk;
        for (const StatusReport& report : reports) {
            if (!report.upstreamError.empty()) {
                std::cerr << "syncscope-cli status: upstream of source " << report.setup.sourceId << ": "
                          << report.upstreamError << '\n';
                exitCode = kExitFailure;
            }
        }
        return exitCode;
    } catch (const std::exception& e) {
        std::cerr << "syncscope-cli status: " << e.what() << '\n';
        return kExitFailure;
    }
}

const CommandRegistration kStatusCommand({"status",
                                          "where a task stands without a running engine: checkpoint vs upstream",
                                          runStatus});

}  // namespace
}  // namespace syncscope::cli
