#include "engine/inspect/checkpoint_analyzer.h"

#include <map>

namespace syncscope::inspect {

using binlog::Location;
using binlog::PositionOrder;

const char* anomalyName(AnomalyKind kind) {
    switch (kind) {
        case AnomalyKind::TableAheadOfGlobal:
            return "table-ahead-of-global";
        case AnomalyKind::TableUnorderedToGlobal:
            return "table-unordered-to-global";
        case AnomalyKind::BeyondUpstream:
            return "beyond-upstream";
        case AnomalyKind::UnorderedToUpstream:
            return "unordered-to-upstream";
        case AnomalyKind::FileNotOnUpstream:
            return "file-not-on-upstream";
        case AnomalyKind::MissingGlobalRow:
            return "missing-global-row";
        case AnomalyKind::UnreadablePoint:
            return "unreadable-point";
    }
    return "unknown";
}

size_t InspectedSource::anomalyCount() const {
    size_t count = anomalies.size();
    if (global) {
        count += global->anomalies.size();
    }
    for (const auto& table : tables) {
        count += table.anomalies.size();
    }
    return count;
}

size_t InspectedCheckpointTable::anomalyCount() const {
    size_t count = problem.empty() ? 0 : 1;
    for (const auto& source : sources) {
        count += source.anomalyCount();
    }
    return count;
}

size_t InspectionReport::anomalyCount() const {
    size_t count = 0;
    for (const auto& table : tables) {
        count += table.anomalyCount();
    }
    return count;
}

namespace {

std::string pointName(const CheckpointRow& row) {
    return row.isGlobal ? std::string("global point") : "table point of " + row.schema + "." + row.table;
}

// Sequence numbers in `to` past `from`, domain by domain (MariaDB); nullopt when a domain went back.
std::optional<uint64_t> mariaDbTransactionsBetween(const binlog::GtidPosition& from, const binlog::GtidPosition& to) {
    uint64_t count = 0;
    for (const auto& [domain, gtid] : to.byDomain()) {
        auto start = from.forDomain(domain);
        uint64_t startSequence = start ? start->sequence : 0;
        if (gtid.sequence < startSequence) {
            return std::nullopt;
        }
        count += gtid.sequence - startSequence;
    }
    return count;
}

std::optional<uint64_t> transactionsBetween(const Location& from, const Location& to) {
    if (from.flavor() != to.flavor() || to.flavor() == binlog::GtidFlavor::None) {
        return std::nullopt;
    }
    if (const auto* set = std::get_if<binlog::GtidSet>(&to.gtids())) {
        return set->subtract(std::get<binlog::GtidSet>(from.gtids())).transactionCount();
    }
    if (const auto* position = std::get_if<binlog::GtidPosition>(&to.gtids())) {
        return mariaDbTransactionsBetween(std::get<binlog::GtidPosition>(from.gtids()), *position);
    }
    return std::nullopt;
}

InspectedPoint parsePoint(const CheckpointRow& row) {
    InspectedPoint point;
    point.row = row;
    try {
        point.location = Location::fromParts(row.binlogName, row.binlogPos.value_or(0), row.binlogGtid);
    } catch (const binlog::PositionError& e) {
        point.anomalies.push_back({AnomalyKind::UnreadablePoint,
                                   "source '" + row.sourceId + "', " + pointName(row) + ": " + e.what(), std::nullopt});
    }
    if (row.isGlobal) {
        try {
            point.exitSafePoint =
                Location::fromParts(row.exitSafeBinlogName, row.exitSafeBinlogPos.value_or(0), row.exitSafeBinlogGtid);
        } catch (const binlog::PositionError& e) {
            point.anomalies.push_back({AnomalyKind::UnreadablePoint,
                                       "source '" + row.sourceId + "', exit-safe point of the global row: " + e.what(),
                                       std::nullopt});
        }
    }
    return point;
}

void checkAgainstUpstream(InspectedPoint& point, const UpstreamState& upstream, const binlog::PositionAxis& axis) {
    if (point.location.isEmpty()) {
        return;
    }
    const std::string where =
        "source '" + point.row.sourceId + "', " + pointName(point.row) + " " + point.location.toString();
    if (!point.location.position().isEmpty()) {
        binlog::AxisPoint placed = axis.place(point.location.position());
        point.placement = placed.placement;
        if (placed.placement == binlog::AxisPlacement::OnAxis) {
            point.axisBytes = placed.bytes;
        }
        if (placed.placement == binlog::AxisPlacement::Purged ||
            placed.placement == binlog::AxisPlacement::UnknownFile) {
            std::string oldest = axis.isEmpty() ? std::string("none") : axis.files().front().file;
            point.anomalies.push_back({AnomalyKind::FileNotOnUpstream,
                                       where + ": upstream " + upstream.server + " no longer has file " +
                                           point.location.position().file() + " (" +
                                           binlog::toString(placed.placement) + "; oldest file it has: " + oldest +
                                           "); a resume from here fails unless it can start from GTIDs",
                                       std::nullopt});
        }
    }
    switch (point.location.compare(upstream.current)) {
        case PositionOrder::After:
            point.anomalies.push_back({AnomalyKind::BeyondUpstream,
                                       where + " is beyond upstream " + upstream.server + "'s current position " +
                                           upstream.current.toString() +
                                           "; the checkpoint belongs to another server or history",
                                       std::nullopt});
            break;
        case PositionOrder::Incomparable:
            point.anomalies.push_back({AnomalyKind::UnorderedToUpstream,
                                       where + " cannot be ordered against upstream " + upstream.server +
                                           "'s current position " + upstream.current.toString() +
                                           " (GTIDs of different histories or flavors)",
                                       std::nullopt});
            break;
        default:
            break;
    }
}

void checkTableAgainstGlobal(InspectedPoint& table, const InspectedPoint& global, const binlog::PositionAxis* axis) {
    if (table.location.isEmpty() || global.location.isEmpty()) {
        return;
    }
    const std::string where = "source '" + table.row.sourceId + "', table " + table.row.schema + "." + table.row.table;
    switch (table.location.compare(global.location)) {
        case PositionOrder::After: {
            SkipWindow window = skipWindowBetween(global.location, table.location, axis);
            table.anomalies.push_back(
                {AnomalyKind::TableAheadOfGlobal, describeTableAheadOfGlobal(table.row, window), window});
            break;
        }
        case PositionOrder::Incomparable:
            table.anomalies.push_back({AnomalyKind::TableUnorderedToGlobal,
                                       where + ": table point " + table.location.toString() +
                                           " cannot be ordered against the global point " + global.location.toString() +
                                           "; whether a resume skips this table's events is undefined",
                                       std::nullopt});
            break;
        default:
            break;
    }
}

}  // namespace

SkipWindow skipWindowBetween(const Location& globalPoint, const Location& tablePoint,
                             const binlog::PositionAxis* axis) {
    SkipWindow window;
    window.from = globalPoint;
    window.to = tablePoint;
    const auto& from = globalPoint.position();
    const auto& to = tablePoint.position();
    if (axis != nullptr) {
        window.bytes = axis->distance(from, to);
    }
    if (!window.bytes && !from.isEmpty() && !to.isEmpty() && from.file() == to.file()) {
        window.bytes = static_cast<int64_t>(to.offset()) - static_cast<int64_t>(from.offset());
    }
    window.transactions = transactionsBetween(globalPoint, tablePoint);
    return window;
}

std::string describeSkipWindow(const SkipWindow& window) {
    std::string out = window.bytes ? std::to_string(*window.bytes) + " bytes" : std::string("size unknown");
    if (window.transactions) {
        out += ", " + std::to_string(*window.transactions) + " transactions";
    }
    if (window.events) {
        out += std::string(", ") + (window.eventsCapped ? "at least " : "") + std::to_string(*window.events) +
               " events, " + std::to_string(window.tableRowsEvents.value_or(0)) + " of them rows events of this table";
    }
    return out;
}

std::string describeTableAheadOfGlobal(const CheckpointRow& table, const SkipWindow& window) {
    return "source '" + table.sourceId + "', table " + table.schema + "." + table.table + ": table point " +
           window.to.toString() + " is ahead of the global point " + window.from.toString() + " (" +
           describeSkipWindow(window) +
           "); a resume starts at the global point and skips this table's events up to its table point, so a row "
           "that never reached the downstream there would be lost silently";
}

InspectedCheckpointTable analyzeCheckpointTable(const CheckpointTableRows& table, const AnalysisOptions& options) {
    InspectedCheckpointTable result;
    result.metaSchema = table.metaSchema;
    result.tableName = table.tableName;
    result.taskName = table.taskName;
    result.problem = table.problem;

    std::optional<binlog::PositionAxis> axis;
    if (options.upstream) {
        try {
            axis.emplace(options.upstream->files);
        } catch (const binlog::PositionError& e) {
            result.problem = "upstream file list unusable: " + std::string(e.what());
        }
    }

    std::map<std::string, InspectedSource> bySource;
    for (const CheckpointRow& row : table.rows) {
        InspectedSource& source = bySource[row.sourceId];
        source.sourceId = row.sourceId;
        InspectedPoint point = parsePoint(row);
        if (row.isGlobal) {
            source.global = std::move(point);
        } else {
            source.tables.push_back(std::move(point));
        }
    }

    for (auto& [id, source] : bySource) {
        const bool upstreamApplies =
            options.upstream && axis && (options.upstreamSourceId.empty() || options.upstreamSourceId == id);
        source.checkedAgainstUpstream = upstreamApplies;
        if (!source.global) {
            source.anomalies.push_back({AnomalyKind::MissingGlobalRow,
                                        "source '" + id + "' has " + std::to_string(source.tables.size()) +
                                            " table rows but no global row (is_global = 1): where a resume starts "
                                            "is unknown, and DM would start from the task's meta instead",
                                        std::nullopt});
        }
        const binlog::PositionAxis* axisForWindows = upstreamApplies ? &*axis : nullptr;
        if (upstreamApplies && source.global) {
            checkAgainstUpstream(*source.global, *options.upstream, *axis);
        }
        for (InspectedPoint& point : source.tables) {
            if (source.global) {
                checkTableAgainstGlobal(point, *source.global, axisForWindows);
            }
            if (upstreamApplies) {
                checkAgainstUpstream(point, *options.upstream, *axis);
            }
        }
        result.sources.push_back(std::move(source));
    }
    return result;
}

}  // namespace syncscope::inspect
