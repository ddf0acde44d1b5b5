#include "engine/task/pipeline_live_view.h"

#include <ctime>

#include "engine/apply/worker_pool.h"
#include "engine/binlog/binlog_position.h"

namespace syncscope::task {

namespace {

// Read per event: CLOCK_MONOTONIC_COARSE costs a load where the precise clock reads the TSC (about 3
// against 22 ns here); its few milliseconds of resolution are well below the counters' interval.
std::chrono::nanoseconds coarseMonotonic() {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
    return std::chrono::seconds(now.tv_sec) + std::chrono::nanoseconds(now.tv_nsec);
}

// Per transaction (groupEnded): one file is the common case and costs a comparison of offsets; only a
// rotation builds positions to order the files.
bool laterThan(const PointView& a, const PointView& b) {
    if (!b.known()) {
        return true;
    }
    if (a.file == b.file) {
        return a.pos > b.pos;
    }
    return binlog::BinlogPosition(a.file, a.pos) > binlog::BinlogPosition(b.file, b.pos);
}

}  // namespace

void PipelineLiveView::startAt(const PointView& start) {
    std::lock_guard lock(mutex_);
    live_.applied = start;
}

void PipelineLiveView::groupOpened(uint32_t timestamp) {
    std::lock_guard lock(mutex_);
    groupOpen_ = true;
    openGroupTimestamp_ = timestamp;
}

void PipelineLiveView::groupEnded(uint64_t lastSequence, PointView end, uint32_t timestamp) {
    std::lock_guard lock(mutex_);
    raiseReadLocked(end);
    frontier_.ended(lastSequence, std::move(end), timestamp);
    groupOpen_ = false;
    openGroupTimestamp_ = 0;
}

void PipelineLiveView::passedIdle(const PointView& at) {
    std::lock_guard lock(mutex_);
    raiseReadLocked(at);
}

void PipelineLiveView::raiseReadLocked(const PointView& to) {
    live_.read.pos = readPos_.load(std::memory_order_relaxed);
    if (to.known() && laterThan(to, live_.read)) {
        setReadLocked(to.file, to.pos);
    }
}

void PipelineLiveView::setReadLocked(std::string_view file, uint64_t pos) {
    live_.read.file.assign(file);
    live_.read.pos = pos;
    live_.read.gtid.clear();
    readPos_.store(pos, std::memory_order_relaxed);
}

void PipelineLiveView::eventRead(std::string_view file, uint64_t endPos) {
    // One writer: a load and a store, no locked instruction (the mutex taken per event was 1-2% of a
    // catch-up's client CPU).
    eventsRead_.store(eventsRead_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    if (file == live_.read.file) {
        readPos_.store(endPos, std::memory_order_relaxed);
        return;
    }
    std::lock_guard lock(mutex_);  // a reader under the mutex sees the new name with its offset
    setReadLocked(file, endPos);
}

bool PipelineLiveView::countersDue() {
    auto now = coarseMonotonic();
    if (now - lastCounters_ < kCountersInterval) {
        return false;
    }
    lastCounters_ = now;
    return true;
}

void PipelineLiveView::copyCounters(const SafeModeView& safeMode) {
    apply::WorkerPool* pool = pool_.load(std::memory_order_acquire);
    apply::ApplyCounters counters = pool != nullptr ? pool->counters() : apply::ApplyCounters{};
    std::lock_guard lock(mutex_);
    live_.rowsApplied = counters.rowsApplied;
    live_.workerQueueDepths = counters.queueDepths;
    live_.applyConcurrency = counters.concurrency;
    live_.workerQueueBytes = counters.queuedBytes;
    live_.rowsPerTable.clear();
    for (const auto& [table, rows] : counters.rowsAppliedByTable) {
        live_.rowsPerTable.push_back({{table.schema, table.table}, rows});
    }
    live_.rowsUnmatchedPerTable.clear();
    for (const auto& [table, rows] : counters.rowsUnmatchedByTable) {
        live_.rowsUnmatchedPerTable.push_back({{table.schema, table.table}, rows});
    }
    live_.safeMode = safeMode.on;
    live_.safeModeReason = safeMode.reason;
    live_.safeModeUntil = safeMode.until;
}

void PipelineLiveView::heldRows(uint64_t rows) {
    std::lock_guard lock(mutex_);
    live_.readQueueDepth = rows;
}

void PipelineLiveView::flushed(double milliseconds) {
    std::lock_guard lock(mutex_);
    live_.lastFlush = Clock::now();
    live_.lastFlushMilliseconds = milliseconds;
}

void PipelineLiveView::settle(const SafeModeView& safeMode) {
    copyCounters(safeMode);  // the session's final counts: the task adds them up
    std::lock_guard lock(mutex_);
    refreshAppliedLocked();
}

void PipelineLiveView::onlineChanges(std::vector<OnlineChangeView> changes) {
    std::lock_guard lock(mutex_);
    live_.onlineChanges = std::move(changes);
}

SessionLiveView PipelineLiveView::current() const {
    std::lock_guard lock(mutex_);
    refreshAppliedLocked();
    return live_;
}

// Under mutex_, from the pipeline's thread or the publisher's (so that the view stays current while
// the pipeline waits on the stream or on a barrier). The oldest unapplied event is the first dispatched
// group not yet committed, else the open group; 0 means everything read is applied (the task's
// LagClock then compares the read point with the upstream's position).
void PipelineLiveView::refreshAppliedLocked() const {
    live_.read.pos = readPos_.load(std::memory_order_relaxed);
    live_.eventsRead = eventsRead_.load(std::memory_order_relaxed);
    apply::WorkerPool* pool = pool_.load(std::memory_order_acquire);
    // The "committed" contract: a failed worker counts the batch it dropped as done, and the pool counts
    // the error before it publishes the drop. So the sequence is read first and the error looked for
    // after: a sequence that includes a dropped batch is always seen together with its error.
    uint64_t appliedSequence = pool != nullptr ? pool->appliedSequence() : 0;
    bool healthy = pool != nullptr && pool->errorCount() == 0;
    if (healthy) {
        if (std::optional<PointView> applied = frontier_.advance(appliedSequence)) {
            live_.applied = std::move(*applied);
        }
    }
    bool drained = healthy && appliedSequence == pool->lastDispatchedSequence();
    // Every event read is done. The read point moves after its event is handled, so right after a group
    // ended (and a flush persisted its end) the read point may still be that group's last rows event:
    // the shortcut only ever raises the applied point.
    if (frontier_.empty() && !groupOpen_ && drained && live_.read.known() && laterThan(live_.read, live_.applied)) {
        live_.applied = live_.read;
    }
    live_.oldestUnappliedTimestamp = frontier_.empty() ? openGroupTimestamp_ : frontier_.oldestTimestamp();
}

}  // namespace syncscope::task
