// One run of the syncer, from the persisted checkpoint until it is interrupted (pause, stop) or fails:
// reads the upstream's binlog, filters and routes, dispatches rows to the apply workers and flushes
// checkpoints behind a barrier (docs/design.md invariants 1 to 5). The Task runs one session at a time.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/binlog/location.h"
#include "engine/checkpoint/checkpoint_tracker.h"
#include "engine/task/status_snapshot.h"
#include "engine/task/task_setup.h"

namespace syncscope::task {

// Skip exactly one upstream transaction: the one that starts at `transactionStart` (the DBA's skip).
struct SkipRequest {
    binlog::BinlogPosition transactionStart;
};

struct SessionOutcome {
    enum class Kind { Interrupted, Failed };
    Kind kind = Kind::Interrupted;
    bool retryable = false;
    std::string message;
    std::optional<FailedEvent> failedEvent;
    binlog::BinlogPosition failedTransactionStart;  // for a skip
    std::string stopPointReached;                   // Interrupted at the DBA's stop point: which one
};

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
    StreamConnectionView stream;  // reading, or reconnecting in place after a cut
};

class SyncSession {
public:
    SyncSession(const TaskSetup& setup, checkpoint::CheckpointTracker& tracker);
    ~SyncSession();
    SyncSession(const SyncSession&) = delete;
    SyncSession& operator=(const SyncSession&) = delete;

    // Runs until `interrupt` is set (then flushes what committed and returns Interrupted) or an
    // error stops it (then nothing past the failed event is persisted and it returns Failed).
    SessionOutcome run(const std::optional<SkipRequest>& skip, const std::atomic<bool>& interrupt);

    // From another thread: makes a blocking binlog read return within a second.
    void cancel();

    SessionLiveView live() const;

private:
    std::unique_ptr<class SyncPipeline> pipeline_;
};

}  // namespace syncscope::task
