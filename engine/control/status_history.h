// The last minutes of a task's lag, rows per second and positions, kept by the control API so that a GUI opening a
// remote engine's charts sees what happened before it connected (GET /api/v1/history?since=TIME, docs/api.md). At
// most one sample a second, ten minutes kept, per channel: the whole task ("") and each source's subtask (its id).
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "engine/task/status_snapshot.h"

namespace syncscope::control {

struct HistoryPoint {
    task::Clock::time_point at{};  // the snapshot's takenAt
    double lagSeconds = 0;
    double rowsPerSecond = 0;  // recent rows per second
    std::optional<uint64_t> upstreamAxis;
    std::optional<uint64_t> persistedGlobalAxis;
};

class StatusHistory {
public:
    // The GUI's history charts show ten minutes, one sample a second (ui/models/history_recorder.h).
    static constexpr std::chrono::seconds kDefaultWindow{600};
    static constexpr std::chrono::milliseconds kDefaultInterval{1000};

    explicit StatusHistory(std::chrono::milliseconds window = kDefaultWindow,
                           std::chrono::milliseconds interval = kDefaultInterval);

    // Adds a sample of `channel` when the snapshot is at least one interval newer than its last one.
    void record(const std::string& channel, const task::StatusSnapshot& snapshot);
    // The samples of `channel` taken after `since`, oldest first (none for a channel never recorded).
    std::vector<HistoryPoint> since(const std::string& channel, task::Clock::time_point since) const;

    std::chrono::milliseconds window() const { return window_; }

private:
    std::chrono::milliseconds window_;
    std::chrono::milliseconds interval_;
    mutable std::mutex mutex_;
    std::map<std::string, std::deque<HistoryPoint>> channels_;
};

// {"samples": [{"at": ISO time, "lag_seconds", "rows_per_second", "upstream_axis_bytes",
// "global_persisted_axis_bytes"}, ...]}
nlohmann::json historyJson(const std::vector<HistoryPoint>& points);
// The inverse; throws syncscope::Error naming the sample and key that cannot be read.
std::vector<HistoryPoint> historyFromJson(const nlohmann::json& json);

}  // namespace syncscope::control
