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

#include "app/cli/cli_commands.h"
#include "engine/binlog/position_axis.h"
#include "engine/inspect/checkpoint_analyzer.h"
#include "engine/inspect/checkpoint_inspector.h"
#include "engine/source/upstream_connection.h"
#include "engine/task/source_config.h"
#include "engine/task/task_config.h"
#include "engine/task/task_setup_builder.h"

namespace syncscope::cli {
namespace {

constexpr int kJsonIndent = 2;

const char* const kStatusUsage =
    "Usage: syncscope-cli status TASK.yaml --source SOURCE.yaml [--json]\n"
    "Shows where the task stands without a running engine: its persisted checkpoint (global point,\n"
    "exit-safe point, table points) beside the upstream's current position, the distance between\n"
    "them in bytes and binlog files, and every table point ahead of the global point with the events\n"
    "a resume would skip. Reads the checkpoint table and the upstream read-only.\n"
    "Exit 0 when both were read (anomalies are reported, not failed), 1 when the configs, the\n"
    "downstream or the upstream could not be read, 2 on bad usage.\n";

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct StatusOptions {
    std::string taskFile;
    std::string sourceFile;
    bool json = false;
};

// How far the persisted global point is behind the upstream's current position.
struct Distance {
    std::optional<int64_t> bytes;  // on the upstream's axis; nullopt when a file is not on it
    std::optional<int64_t> files;  // difference of the file numbers
};

struct StatusReport {
    task::TaskSetup setup;
    inspect::InspectionReport inspection;
    std::string upstreamError;                         // why the upstream could not be read; empty when it was
    const inspect::InspectedSource* source = nullptr;  // this task's source, when it has rows
    std::string checkpointProblem;
    Distance distance;
};

StatusOptions parseOptions(std::span<char*> args) {
    StatusOptions options;
    for (size_t i = 0; i < args.size(); ++i) {
        std::string_view arg = args[i];
        if (arg == "--source") {
            if (i + 1 >= args.size()) {
                throw UsageError("--source needs a value");
            }
            options.sourceFile = args[++i];
        } else if (arg == "--json") {
            options.json = true;
        } else if (!arg.empty() && arg[0] == '-') {
            throw UsageError("unknown option '" + std::string(arg) + "'");
        } else if (options.taskFile.empty()) {
            options.taskFile = arg;
        } else {
            throw UsageError("more than one task file given");
        }
    }
    if (options.taskFile.empty() || options.sourceFile.empty()) {
        throw UsageError("status needs TASK.yaml and --source SOURCE.yaml");
    }
    return options;
}

Distance distanceBetween(const binlog::Location& from, const binlog::Location& to,
                         const std::vector<binlog::BinlogFileSize>& files) {
    Distance distance;
    if (from.position().isEmpty() || to.position().isEmpty()) {
        return distance;
    }
    distance.files =
        static_cast<int64_t>(to.position().fileNumber()) - static_cast<int64_t>(from.position().fileNumber());
    try {
        binlog::PositionAxis axis(files);
        distance.bytes = axis.distance(from.position(), to.position());
    } catch (const std::exception&) {
        // An odd file list: the file distance still holds, the byte distance stays unknown.
    }
    if (!distance.bytes && *distance.files == 0) {
        distance.bytes = static_cast<int64_t>(to.position().offset()) - static_cast<int64_t>(from.position().offset());
    }
    return distance;
}

StatusReport readStatus(const StatusOptions& options) {
    StatusReport report;
    task::TaskConfig taskConfig = task::loadTaskConfig(options.taskFile);
    task::SourceConfig sourceConfig = task::loadSourceConfig(options.sourceFile);
    std::vector<std::string> warnings;
    report.setup = task::makeTaskSetup(taskConfig, sourceConfig, warnings);

    inspect::InspectionRequest request;
    request.target = report.setup.downstream;
    request.metaSchema = report.setup.metaSchema;
    request.task = report.setup.taskName;
    request.upstream = report.setup.upstream;
    request.upstreamSourceId = report.setup.sourceId;
    try {
        report.inspection = inspect::inspectCheckpoints(request);
    } catch (const source::UpstreamError& e) {
        // The checkpoint is still worth showing when only the upstream is out of reach.
        report.upstreamError = e.what();
        request.upstream.reset();
        report.inspection = inspect::inspectCheckpoints(request);
    }
    const std::string expectedTable = report.setup.taskName + "_syncer_checkpoint";
    for (const auto& table : report.inspection.tables) {
        if (table.tableName != expectedTable) {
            continue;
        }
        report.checkpointProblem = table.problem;
        for (const auto& source : table.sources) {
            if (source.sourceId == report.setup.sourceId) {
                report.source = &source;
            }
        }
    }
    if (report.source && report.source->global && report.inspection.upstream) {
        report.distance = distanceBetween(report.source->global->location, report.inspection.upstream->current,
                                          report.inspection.upstream->files);
    }
    return report;
}

nlohmann::json locationJson(const binlog::Location& location) {
    if (location.isEmpty()) {
        return nullptr;
    }
    return {{"binlog_name", location.position().file()},
            {"binlog_pos", location.position().offset()},
            {"binlog_gtid", location.gtidText()},
            {"text", location.toString()}};
}

std::string dmText(const binlog::Location& location) {
    return location.position().isEmpty()
               ? std::string()
               : "(" + location.position().file() + ", " + std::to_string(location.position().offset()) + ")";
}

nlohmann::json optionalJson(const std::optional<int64_t>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json anomaliesJson(const std::vector<inspect::CheckpointAnomaly>& anomalies) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& anomaly : anomalies) {
        nlohmann::json item{{"kind", inspect::anomalyName(anomaly.kind)}, {"message", anomaly.message}};
        if (anomaly.skipWindow) {
            const auto& window = *anomaly.skipWindow;
            item["skip_window"] = {
                {"from", locationJson(window.from)},
                {"to", locationJson(window.to)},
                {"bytes", optionalJson(window.bytes)},
                {"transactions", window.transactions ? nlohmann::json(*window.transactions) : nlohmann::json(nullptr)}};
        }
        out.push_back(std::move(item));
    }
    return out;
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
    const inspect::InspectedSource* source = report.source;
    const inspect::InspectedPoint* global = source && source->global ? &*source->global : nullptr;
    binlog::Location globalPoint = global ? global->location : binlog::Location();
    out["syncer_binlog"] = dmText(globalPoint);
    out["syncer_binlog_gtid"] = globalPoint.gtidText();
    out["global"] = locationJson(globalPoint);
    out["exit_safe"] = global ? locationJson(global->exitSafePoint) : nlohmann::json(nullptr);
    out["global_update_time"] = global ? nlohmann::json(global->row.updateTime) : nlohmann::json(nullptr);
    out["behind_upstream"] = {{"bytes", optionalJson(report.distance.bytes)},
                              {"files", optionalJson(report.distance.files)}};
    out["synced"] = report.distance.bytes && *report.distance.bytes == 0 && report.distance.files == 0;
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
    return out;
}

std::string distanceText(const Distance& distance) {
    if (!distance.bytes && !distance.files) {
        return "distance unknown";
    }
    std::string bytes = distance.bytes ? std::to_string(*distance.bytes) + " bytes" : "bytes unknown";
    std::string files = distance.files ? std::to_string(*distance.files) + " files" : "files unknown";
    return bytes + ", " + files + " behind the upstream";
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
    const inspect::InspectedSource* source = report.source;
    if (!source) {
        out << "  no persisted checkpoint for this source: a start begins at the task's meta, else at the upstream's "
               "current position\n";
        return;
    }
    printAnomalies(source->anomalies, out);
    if (source->global) {
        const auto& global = *source->global;
        out << "  global      " << global.location.toString() << "  (" << distanceText(report.distance)
            << "; persisted " << global.row.updateTime << ")\n";
        printAnomalies(global.anomalies, out);
        out << "  exit-safe   "
            << (global.exitSafePoint.isEmpty() ? std::string("(none)") : global.exitSafePoint.toString())
            << "  (after a resume, safe mode stays on until the stream passes it)\n";
    }
    out << "  table points: " << source->tables.size() << '\n';
    for (const auto& point : source->tables) {
        bool ahead = hasAnomaly(point, inspect::AnomalyKind::TableAheadOfGlobal);
        out << "    " << (ahead ? "! " : "  ") << point.row.schema << "." << point.row.table << "  "
            << point.location.toString() << (ahead ? "  AHEAD OF THE GLOBAL POINT" : "") << '\n';
        printAnomalies(point.anomalies, out);
    }
    size_t anomalies = source->anomalyCount();
    out << anomalies << (anomalies == 1 ? " anomaly" : " anomalies") << '\n';
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
        StatusReport report = readStatus(options);
        if (options.json) {
            std::cout << toJson(report).dump(kJsonIndent) << '\n';
        } else {
            printText(report, std::cout);
        }
        if (!report.upstreamError.empty()) {
            std::cerr << "syncscope-cli status: upstream: " << report.upstreamError << '\n';
            return kExitFailure;
        }
        return kExitOk;
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
