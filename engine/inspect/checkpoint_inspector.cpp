#include "engine/inspect/checkpoint_inspector.h"

#include <cppconn/connection.h>

#include <memory>

#include "engine/apply/downstream_connection.h"
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
        if (upstream) {
            countSkippedEvents(table, *upstream, *axis);
        }
        report.tables.push_back(std::move(table));
    }
    return report;
}

}  // namespace syncscope::inspect
