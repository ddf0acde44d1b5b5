// Rows per second and each table's last change, derived from the applied-row counters as the status
// publisher samples them (publisher thread only):
// - recent: rows applied over the last kRecentWindow (DM's recent_rps);
// - total: rows applied since the task first ran, over that time (DM's total_rps);
// - a table's last change: when its applied-row count last moved.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <utility>

#include "engine/checkpoint/checkpoint_tracker.h"
#include "engine/task/status_snapshot.h"

namespace syncscope::task {

class ActivityMeter {
public:
    static constexpr std::chrono::seconds kRecentWindow{5};

    struct Rates {
        double recent = 0;
        double total = 0;
    };

    // `rowsApplied` counts over the task's life; `running` whether a session runs now.
    Rates rates(uint64_t rowsApplied, bool running, Clock::time_point now);

    // When `table`'s applied rows last changed (first seen with rows counts as a change); nullopt before any.
    std::optional<Clock::time_point> lastChange(const checkpoint::TableName& table, uint64_t rowsApplied,
                                                Clock::time_point now);

private:
    std::deque<std::pair<Clock::time_point, uint64_t>> samples_;  // the last kRecentWindow
    std::optional<std::pair<Clock::time_point, uint64_t>> firstRun_;
    struct TableActivity {
        uint64_t rows = 0;
        std::optional<Clock::time_point> changedAt;
    };
    std::map<checkpoint::TableName, TableActivity> tables_;
};

}  // namespace syncscope::task
