// The status snapshot's composition, one part of the task (the others: the lifecycle and commands in
// task.cpp, the retry's backoff, the load stage). It makes one consistent view of the task's stage and
// failure, the checkpoint points, the running session's live view and the upstream's position (every
// point at or before the upstream's position), and keeps what needs history between snapshots: the
// sequence number, rates, lag and the catch-up estimate. Publisher thread only.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "engine/checkpoint/checkpoint_tracker.h"
#include "engine/load/load_progress.h"
#include "engine/task/activity_meter.h"
#include "engine/task/catch_up_estimate.h"
#include "engine/task/lag_clock.h"
#include "engine/task/session_live_view.h"
#include "engine/task/status_snapshot.h"
#include "engine/task/task_setup.h"
#include "engine/task/upstream_watch.h"

namespace syncscope::task {

// The counts of the sessions that have ended, kept by the task.
struct SessionTotals {
    uint64_t eventsRead = 0;
    uint64_t rowsApplied = 0;
    std::map<checkpoint::TableName, uint64_t> rowsByTable;
    std::map<checkpoint::TableName, uint64_t> rowsUnmatchedByTable;

    // Counts an ended session's counters in.
    void add(const SessionLiveView& ended);
};

// What the task holds under its lock, copied for one snapshot.
struct TaskStateView {
    Stage stage = Stage::New;
    std::string stageReason;
    std::string stopPoint;
    std::optional<FailedEvent> failedEvent;
    std::string lastError;
    bool sessionRunning = false;
    std::optional<EndedSessionView> ended;  // what the last session left unapplied
    SessionTotals totals;                   // with the session under one lock: an ending session counts once
    binlog::Location previousGlobalPoint;   // what the last resume-from replaced
};

class StatusComposer {
public:
    explicit StatusComposer(const TaskSetup& setup) : setup_(setup) {}

    // `points` read after `state`, `live` after `points` (empty when no session runs), `upstream` first:
    // the upstream is then brought up to the furthest point read.
    std::shared_ptr<const StatusSnapshot> compose(TaskStateView state, const checkpoint::TrackerView& points,
                                                  const SessionLiveView& live, UpstreamState upstream,
                                                  std::optional<load::LoadProgressView> load);

private:
    const TaskSetup& setup_;
    uint64_t sequence_ = 0;
    LagClock lagClock_;
    ActivityMeter activity_;
    CatchUpEstimate catchUp_;
};

}  // namespace syncscope::task
