#include "engine/inspect/checkpoint_inspector.h"

#include <cppconn/connection.h>

#include <memory>

#include "engine/apply/downstream_connection.h"
#include "engine/checkpoint/applied_marks_store.h"
#include "engine/checkpoint/checkpoint_table.h"
#include "engine/inspect/checkpoint_table_reader.h"
#include "engine/inspect/skipped_event_counter.h"
#include "engine/source/upstream_connection.h"

namespace syncscope::inspect {

namespace {

// Counts on the upstream's binlog the events of every window a resume would skip.
void countSkippedEvents(InspectedCheckpointTable& table, source::UpstreamConnection& upstream,
                        const binlog::PositionAxis& axis) {
    SkippedEventCounter counter(upstream, axis);
    for (auto& source : table.sources) {
        if (!source.checkedAgainstUpstream) {
            continue;
        }
        for (auto& point : source.tables) {
            for (auto& anomaly : point.anomalies) {
                if (anomaly.kind != AnomalyKind::TableAheadOfGlobal || !anomaly.skipWindow) {
                    continue;
                }
                if (counter.count(*anomaly.skipWindow, point.row.schema, point.row.table).empty()) {
                    anomaly.message = describeTableAheadOfGlobal(point.row, *anomaly.skipWindow);
                }
            }
        }
    }
}

// The applied marks of every source of the table (SyncScope's own tables; a DM deployment has none). A
// table that cannot be read is said on each source and does not stop the inspection.
void readAppliedMarks(InspectedCheckpointTable& table, sql::Connection& connection,
                      const std::optional<binlog::PositionAxis>& axis) {
    checkpoint::AppliedMarksStore store(connection, table.metaSchema, table.taskName);
    for (auto& source : table.sources) {
        try {
            for (const auto& [name, mark] : store.load(source.sourceId)) {
                InspectedAppliedMark inspected{name.schema, name.table, mark.event, mark.row, {}, {}};
                if (axis) {
                    binlog::AxisPoint placed = axis->place(mark.event);
                    inspected.placement = placed.placement;
                    if (placed.placement == binlog::AxisPlacement::OnAxis) {
                        inspected.axisBytes = placed.bytes;
                    }
                }
                source.appliedMarks.push_back(std::move(inspected));
            }
        } catch (const checkpoint::CheckpointTableError& e) {
            source.appliedMarksProblem = e.what();
        }
    }
}

}  // namespace

InspectionReport inspectCheckpoints(const InspectionRequest& request) {
    InspectionReport report;
    report.target = request.target.describe();

    AnalysisOptions options;
    options.upstreamSourceId = request.upstreamSourceId;
    std::unique_ptr<source::UpstreamConnection> upstream;
    std::optional<binlog::PositionAxis> axis;
    if (request.upstream) {
        upstream = std::make_unique<source::UpstreamConnection>(*request.upstream);
        options.upstream = readUpstreamState(*upstream);
        report.upstream = options.upstream;
        axis.emplace(options.upstream->files);
    }

    auto connection = apply::connectDownstream(request.target);
    CheckpointTableReader reader(*connection);
    for (const auto& rows : reader.read(request.metaSchema, request.task)) {
        InspectedCheckpointTable table = analyzeCheckpointTable(rows, options);
        if (table.problem.empty()) {
            readAppliedMarks(table, *connection, axis);
        }
        if (upstream) {
            countSkippedEvents(table, *upstream, *axis);
        }
        report.tables.push_back(std::move(table));
    }
    return report;
}

}  // namespace syncscope::inspect
