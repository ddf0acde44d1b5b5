#include "engine/inspect/checkpoint_inspector.h"

#include <cppconn/connection.h>

#include "engine/apply/downstream_connection.h"
#include "engine/inspect/checkpoint_table_reader.h"
#include "engine/source/upstream_connection.h"

namespace syncscope::inspect {

InspectionReport inspectCheckpoints(const InspectionRequest& request) {
    InspectionReport report;
    report.target = request.target.describe();

    AnalysisOptions options;
    options.upstreamSourceId = request.upstreamSourceId;
    if (request.upstream) {
        source::UpstreamConnection upstream(*request.upstream);
        options.upstream = readUpstreamState(upstream);
        report.upstream = options.upstream;
    }

    auto connection = apply::connectDownstream(request.target);
    CheckpointTableReader reader(*connection);
    for (const auto& table : reader.read(request.metaSchema, request.task)) {
        report.tables.push_back(analyzeCheckpointTable(table, options));
    }
    return report;
}

}  // namespace syncscope::inspect
