// The last verify's summary (written by `syncscope-cli verify` as <log-dir>/<task>-verify.json) as the
// control API serves it: the "verify" object of GET /api/v1/status and the syncscope_verify_* families
// of GET /metrics. A missing or unreadable file serves as null and no samples.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "engine/control/metrics_writer.h"

namespace syncscope::control {

nlohmann::json readVerifySummary(const std::string& path);
void writeVerifyMetrics(const nlohmann::json& summary, MetricsWriter& writer);

}  // namespace syncscope::control
