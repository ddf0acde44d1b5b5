#include "app/cli/checkpoint_printer.h"

namespace syncscope::cli {

namespace {

template <typename T>
nlohmann::json optionalJson(const std::optional<T>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

void printAnomalies(const std::vector<inspect::CheckpointAnomaly>& anomalies, std::ostream& out) {
    for (const auto& anomaly : anomalies) {
        out << "      ! " << inspect::anomalyName(anomaly.kind) << ": " << anomaly.message << '\n';
    }
}

nlohmann::json appliedMarksJson(const std::vector<inspect::InspectedAppliedMark>& marks) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& mark : marks) {
        out.push_back({{"schema", mark.schema},
                       {"table", mark.table},
                       {"binlog_name", mark.event.file()},
                       {"binlog_pos", mark.event.offset()},
                       {"row_in_event", mark.row},
                       {"axis_bytes", optionalJson(mark.axisBytes)},
                       {"placement", mark.placement ? nlohmann::json(binlog::toString(*mark.placement)) : nullptr}});
    }
    return out;
}

// A table without a key: its rows up to the mark are committed downstream, so a replay drops them.
void printAppliedMarks(const inspect::InspectedSource& source, std::ostream& out) {
    if (!source.appliedMarksProblem.empty()) {
        out << "    applied marks unreadable: " << source.appliedMarksProblem << '\n';
    }
    for (const auto& mark : source.appliedMarks) {
        out << "    applied    " << mark.schema << "." << mark.table << "  " << mark.event.file() << ":"
            << mark.event.offset() << " row " << mark.row << "  (no key: rows up to here are committed downstream)";
        if (mark.placement && *mark.placement != binlog::AxisPlacement::OnAxis) {
            out << "  [" << binlog::toString(*mark.placement) << "]";
        }
        out << '\n';
    }
}

}  // namespace

nlohmann::json locationJson(const binlog::Location& location) {
    if (location.isEmpty()) {
        return nullptr;
    }
    return {{"binlog_name", location.position().file()},
            {"binlog_pos", location.position().offset()},
            {"binlog_gtid", location.gtidText()},
            {"text", location.toString()}};
}

nlohmann::json anomaliesJson(const std::vector<inspect::CheckpointAnomaly>& anomalies) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& anomaly : anomalies) {
        nlohmann::json item{{"kind", inspect::anomalyName(anomaly.kind)}, {"message", anomaly.message}};
        if (anomaly.skipWindow) {
            const auto& window = *anomaly.skipWindow;
            item["skip_window"] = {
                {"from", locationJson(window.from)},     {"to", locationJson(window.to)},
                {"bytes", optionalJson(window.bytes)},   {"transactions", optionalJson(window.transactions)},
                {"events", optionalJson(window.events)}, {"table_rows_events", optionalJson(window.tableRowsEvents)},
                {"events_capped", window.eventsCapped}};
        }
        out.push_back(std::move(item));
    }
    return out;
}

nlohmann::json pointJson(const inspect::InspectedPoint& point) {
    // The stored values as they are (DM's too), beside the parsed point.
    nlohmann::json out{{"schema", point.row.schema},
                       {"table", point.row.table},
                       {"binlog_name", point.row.binlogName},
                       {"binlog_pos", optionalJson(point.row.binlogPos)},
                       {"binlog_gtid", point.row.binlogGtid},
                       {"point", locationJson(point.location)},
                       {"update_time", point.row.updateTime},
                       {"axis_bytes", optionalJson(point.axisBytes)},
                       {"placement", point.placement ? nlohmann::json(binlog::toString(*point.placement)) : nullptr},
                       {"anomalies", anomaliesJson(point.anomalies)}};
    if (point.row.isGlobal) {
        out["exit_safe_point"] = locationJson(point.exitSafePoint);
    }
    return out;
}

nlohmann::json sourceJson(const inspect::InspectedSource& source) {
    nlohmann::json points = nlohmann::json::array();
    for (const auto& point : source.tables) {
        points.push_back(pointJson(point));
    }
    return {{"source_id", source.sourceId},
            {"checked_against_upstream", source.checkedAgainstUpstream},
            {"global", source.global ? pointJson(*source.global) : nlohmann::json(nullptr)},
            {"tables", points},
            {"applied_marks", appliedMarksJson(source.appliedMarks)},
            {"applied_marks_problem", source.appliedMarksProblem},
            {"anomalies", anomaliesJson(source.anomalies)}};
}

nlohmann::json upstreamJson(const inspect::UpstreamState& upstream) {
    nlohmann::json files = nlohmann::json::array();
    for (const auto& file : upstream.files) {
        files.push_back({{"file", file.file}, {"size", file.size}});
    }
    return {{"server", upstream.server}, {"current", locationJson(upstream.current)}, {"files", files}};
}

nlohmann::json inspectionJson(const inspect::InspectionReport& report) {
    nlohmann::json out{{"target", report.target}, {"anomalies", report.anomalyCount()}};
    out["upstream"] = report.upstream ? upstreamJson(*report.upstream) : nlohmann::json(nullptr);
    nlohmann::json tables = nlohmann::json::array();
    for (const auto& table : report.tables) {
        nlohmann::json sources = nlohmann::json::array();
        for (const auto& source : table.sources) {
            sources.push_back(sourceJson(source));
        }
        tables.push_back({{"meta_schema", table.metaSchema},
                          {"table", table.tableName},
                          {"task", table.taskName},
                          {"problem", table.problem},
                          {"sources", sources}});
    }
    out["tables"] = tables;
    return out;
}

void printSourcePoints(const inspect::InspectedSource& source, std::ostream& out) {
    out << "  source " << source.sourceId << '\n';
    printAnomalies(source.anomalies, out);
    if (source.global) {
        out << "    global     " << source.global->location.toString();
        if (!source.global->exitSafePoint.isEmpty()) {
            out << "  exit-safe " << source.global->exitSafePoint.toString();
        }
        out << '\n';
        printAnomalies(source.global->anomalies, out);
    }
    for (const auto& point : source.tables) {
        out << "    table      " << point.row.schema << "." << point.row.table << "  " << point.location.toString()
            << '\n';
        printAnomalies(point.anomalies, out);
    }
    printAppliedMarks(source, out);
}

void printUpstream(const inspect::UpstreamState& upstream, std::ostream& out) {
    out << "upstream " << upstream.server << " at " << upstream.current.toString() << ", " << upstream.files.size()
        << " binlog files";
    if (!upstream.files.empty()) {
        out << " (" << upstream.files.front().file << " .. " << upstream.files.back().file << ")";
    }
    out << '\n';
}

void printInspection(const inspect::InspectionReport& report, std::ostream& out) {
    out << "target " << report.target << '\n';
    if (report.upstream) {
        printUpstream(*report.upstream, out);
    }
    if (report.tables.empty()) {
        out << "no checkpoint tables found\n";
    }
    for (const auto& table : report.tables) {
        out << "\ncheckpoint table `" << table.metaSchema << "`.`" << table.tableName << "` (task " << table.taskName
            << ")\n";
        if (!table.problem.empty()) {
            out << "  ! " << table.problem << '\n';
        }
        for (const auto& source : table.sources) {
            printSourcePoints(source, out);
        }
    }
    out << '\n' << report.anomalyCount() << (report.anomalyCount() == 1 ? " anomaly" : " anomalies") << '\n';
}

}  // namespace syncscope::cli
