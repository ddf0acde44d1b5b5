// What the status publisher reads of a running session, written by the pipeline's thread and refreshed
// from the workers' progress by the publisher's: the read and applied points, the oldest event not yet
// applied (for the lag), counters and safe mode. The applied point follows the workers' commits, not
// only the flushes; a worker error stops it where it is (a dropped batch never counts as applied).
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <string_view>

#include "engine/task/applied_frontier.h"
#include "engine/task/session_live_view.h"

namespace syncscope::apply {
class WorkerPool;
}

namespace syncscope::task {

// Whether the rows now go downstream in safe mode, why, and until where (the replay window's end).
struct SafeModeView {
    bool on = false;
    std::string reason;
    PointView until;
};

class PipelineLiveView {
public:
    // The workers, once made (they live as long as the view's reader may ask).
    void attach(apply::WorkerPool* workers) { pool_.store(workers, std::memory_order_release); }

    void startAt(const PointView& start);
    void groupOpened(uint32_t timestamp);
    // A group ended at `end`; its last change has dispatch sequence `lastSequence`.
    // The read point is raised to `end` too: the checkpoint may move (and be persisted) before the
    // event is counted as read, and a status view must never show a point past the read point.
    void groupEnded(uint64_t lastSequence, PointView end, uint32_t timestamp);
    // Between groups the global point moved to `at` (a rotation, a binlog checkpoint): read up to it.
    void passedIdle(const PointView& at);
    // Per event, so without the mutex while the file stays the same: the offset and the count are
    // atomics that current() reads; a new file name is written under the mutex with its offset.
    void eventRead(std::string_view file, uint64_t endPos);
    // Whether the workers' counters are due for a copy (at most at the status rate: maps per table are
    // copied); when it says yes, the caller calls copyCounters.
    bool countersDue();
    void copyCounters(const SafeModeView& safeMode);
    void flushed(double milliseconds);
    // The online schema changes followed (online-ddl), when they changed.
    void onlineChanges(std::vector<OnlineChangeView> changes);
    // Rows read and not yet handed to a worker (an XA branch's rows wait for its outcome).
    void heldRows(uint64_t rows);
    // The session's end: its last view says what stays unapplied, also when the end came faster than
    // the view's refresh.
    void settle(const SafeModeView& safeMode);

    SessionLiveView current() const;

private:
    void refreshAppliedLocked() const;
    void raiseReadLocked(const PointView& to);
    void setReadLocked(std::string_view file, uint64_t pos);

    static constexpr std::chrono::milliseconds kCountersInterval{50};

    mutable std::mutex mutex_;
    mutable SessionLiveView live_;  // its read.pos and eventsRead are copied from the atomics below
    // The read point's offset in live_.read.file and the events read, written by the pipeline's thread
    // only (live_.read.file too: that thread reads it without the mutex, and writes it under it).
    std::atomic<uint64_t> readPos_{0};
    std::atomic<uint64_t> eventsRead_{0};
    mutable AppliedFrontier frontier_;  // dispatched groups not yet known to be committed
    bool groupOpen_ = false;            // a group is open (its timestamp may be 0)
    uint32_t openGroupTimestamp_ = 0;   // the open group's timestamp; 0 when none is open
    std::atomic<apply::WorkerPool*> pool_{nullptr};
    std::chrono::nanoseconds lastCounters_{};  // CLOCK_MONOTONIC_COARSE
};

}  // namespace syncscope::task
