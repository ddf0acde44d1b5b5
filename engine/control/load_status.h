// The snapshot load's progress in the status API (DM's query-status names for the Dump and Load
// units where DM has them) and in /metrics.
#pragma once

#include <nlohmann/json.hpp>

#include "engine/control/metrics_writer.h"
#include "engine/load/load_progress.h"

namespace syncscope::control {

nlohmann::json loadProgressJson(const load::LoadProgressView& progress);

void writeLoadMetrics(MetricsWriter& out, const load::LoadProgressView& progress, const MetricLabels& task);

}  // namespace syncscope::control
