// What a running session shows (PipelineLiveView keeps it; each status snapshot copies it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/checkpoint/checkpoint_tracker.h"
#include "engine/task/status_snapshot.h"

namespace syncscope::task {

// What the session shows while it runs; copied into each status snapshot.
struct SessionLiveView {
    PointView read;
    PointView applied;
    uint64_t eventsRead = 0;
    uint64_t rowsApplied = 0;
    // Upstream time (seconds since the epoch) of the oldest event not yet applied downstream; 0 when
    // everything read is applied and the stream is caught up.
    uint32_t oldestUnappliedTimestamp = 0;
    uint64_t readQueueDepth = 0;  // rows read and not yet dispatched (an XA branch waiting for its outcome)
    std::vector<uint64_t> workerQueueDepths;
    uint64_t workerQueueBytes = 0;
    apply::ConcurrencyView applyConcurrency;
    bool safeMode = false;
    std::string safeModeReason;  // why safe mode is on ("" when off)
    PointView safeModeUntil;     // the end of the replay window when that is the reason
    std::optional<Clock::time_point> lastFlush;
    double lastFlushMilliseconds = 0;
    std::vector<std::pair<checkpoint::TableName, uint64_t>> rowsPerTable;
    std::vector<std::pair<checkpoint::TableName, uint64_t>> rowsUnmatchedPerTable;  // found no downstream row
    StreamConnectionView stream;                  // reading, or reconnecting in place after a cut
    std::vector<OnlineChangeView> onlineChanges;  // online-ddl: the tools' changes being followed
};

}  // namespace syncscope::task
