// Checkpoint inspection as `syncscope-cli checkpoints` and `status` print it: JSON values (the stored
// values beside the parsed points) and the text lines of one source's points and anomalies.
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>
#include <vector>

#include "engine/inspect/inspection_report.h"

namespace syncscope::cli {

nlohmann::json locationJson(const binlog::Location& location);  // null when empty
nlohmann::json anomaliesJson(const std::vector<inspect::CheckpointAnomaly>& anomalies);
nlohmann::json pointJson(const inspect::InspectedPoint& point);
// source_id, checked_against_upstream, global, tables, anomalies
nlohmann::json sourceJson(const inspect::InspectedSource& source);
nlohmann::json upstreamJson(const inspect::UpstreamState& upstream);
nlohmann::json inspectionJson(const inspect::InspectionReport& report);

// "  source ID", its global (with the exit-safe point) and table points, each anomaly under its point.
void printSourcePoints(const inspect::InspectedSource& source, std::ostream& out);
// "upstream user@host:port at FILE:POS, N binlog files (first .. last)"
void printUpstream(const inspect::UpstreamState& upstream, std::ostream& out);
void printInspection(const inspect::InspectionReport& report, std::ostream& out);

}  // namespace syncscope::cli
