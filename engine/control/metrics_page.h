// GET /metrics: the status snapshot in the Prometheus text format. Positions (on the upstream's
// byte axis, and as file number and offset), lag, rows and events counters, queue depths, the last
// flush, the stage as a labelled gauge, table points ahead of the global point, errors by class.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "engine/task/status_snapshot.h"

namespace syncscope::control {

std::string renderMetrics(const task::StatusSnapshot& status, const std::map<std::string, uint64_t>& errorsByClass);

}  // namespace syncscope::control
