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
#include "engine/task/session_live_view.h"
#include "engine/task/session_outcome.h"
#include "engine/task/status_snapshot.h"
#include "engine/task/task_setup.h"

namespace syncscope::task {

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
