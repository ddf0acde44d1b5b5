// Checkpoint inspection in one call, for the GUI and the CLI: connects to the downstream (and the
// upstream when given), reads the checkpoint tables read-only and analyses them.
#pragma once

#include <optional>
#include <string>

#include "engine/common/server_settings.h"
#include "engine/inspect/checkpoint_analyzer.h"
#include "engine/inspect/inspection_report.h"

namespace syncscope::inspect {

struct InspectionRequest {
    ServerSettings target;
    std::string metaSchema = "dm_meta";
    std::string task;  // empty: every <task>_syncer_checkpoint table of the meta schema
    std::optional<ServerSettings> upstream;
    std::string upstreamSourceId;  // which source the upstream is; empty: all
};

// Throws apply::DownstreamError / source::UpstreamError / Error naming the server and what failed.
InspectionReport inspectCheckpoints(const InspectionRequest& request);

}  // namespace syncscope::inspect
