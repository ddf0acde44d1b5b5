// One apply worker: a thread with its own downstream connection and a bounded queue. It commits up to
// `batch` changes per downstream transaction (when the batch is full, at a barrier, or when its oldest
// change has waited an idle tick). A failed batch is rolled back whole and replayed row by row in a
// fresh transaction (rolled back too) to name the exact row that fails.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>
#include "engine/apply/ring_queue.h"

#include "engine/apply/applied_marks.h"
#include "engine/apply/apply_counters.h"
#include "engine/apply/apply_failure.h"
#include "engine/apply/commit_slots.h"
#include "engine/apply/dml_builder.h"
#include "engine/apply/dml_session.h"
#include "engine/apply/row_change.h"

namespace syncscope::apply {

struct WorkerSettings {
    // A deadlock or lock wait timeout between workers is retried here, batch and all, before it is
    // reported: it is a matter of timing, not of the rows.
    static constexpr int kDefaultLockRetries = 5;
    static constexpr std::chrono::milliseconds kDefaultLockRetryPause{20};

    static constexpr size_t kDefaultQueueBytes = 8u << 20;

    size_t batch = 100;
    // The queue holds at most this many changes and this many bytes of them (RowChange::footprintBytes;
    // a single larger change is still taken when the queue is empty): memory stays bounded however far
    // behind the task is, whatever the rows' size.
    size_t queueCapacity = 4096;
    size_t queueBytes = kDefaultQueueBytes;
    // A partial batch is committed once no row has come for idleCommit, and at the latest maxBatchAge
    // after its first row (never sooner than idleCommit): a worker that gets a row every few ms still
    // fills its batches instead of committing a few rows at a time.
    std::chrono::milliseconds idleCommit{10};
    std::chrono::milliseconds maxBatchAge{100};
    bool multipleRows = true;
    // With multipleRows: a batch's changes of one row fold into their net effect where exact (key_folding.h).
    bool compact = true;
    // The session has foreign_key_checks=1 (the DBA's target-session setting): deletes cascade
    // downstream, so safe mode refuses what it cannot write without deleting (DmlBuilder).
    bool foreignKeyChecks = false;
    int lockRetries = kDefaultLockRetries;
    std::chrono::milliseconds lockRetryPause = kDefaultLockRetryPause;
    // Where batches record the applied marks of tables without a key, for source `sourceId`
    // (applied_marks.h); an empty task name records none.
    AppliedMarksTable appliedMarks{};
    std::string sourceId{};
};

class ApplyWorker {
public:
    using FailureSink = std::function<void(ApplyFailure)>;
    using FailedCheck = std::function<bool()>;

    // `failed` says whether the pool holds an error: a worker then discards what it has instead of
    // committing it. `report` receives this worker's failures. Every batch runs holding one of
    // `commitSlots` (shared by the pool's workers, outliving them).
    ApplyWorker(size_t index, WorkerSettings settings, std::unique_ptr<DmlSession> executor, FailedCheck failed,
                FailureSink report, CommitSlots& commitSlots);
    ~ApplyWorker();
    ApplyWorker(const ApplyWorker&) = delete;
    ApplyWorker& operator=(const ApplyWorker&) = delete;

    // Blocks while the queue is full. `sequence` increases with every dispatch of the pool.
    void push(RowChange change, uint64_t sequence);
    // Queues a barrier: everything queued before it is committed (or discarded after an error)
    // before waitBarrier(generation) returns.
    void pushBarrier(uint64_t generation);
    void waitBarrier(uint64_t generation);

    // The sequence of the last change this worker committed (or discarded after an error).
    uint64_t committedSequence() const { return committedSequence_.load(std::memory_order_acquire); }
    // The sequence of the last change queued on this worker.
    uint64_t pushedSequence() const { return pushedSequence_.load(std::memory_order_acquire); }

    // New connection for a worker that failed; only while its queue is empty (after a barrier).
    void replaceExecutor(std::unique_ptr<DmlSession> executor);
    void stop();

    size_t queueDepth() const;
    size_t queuedBytes() const;
    size_t pendingRows() const;
    // Adds this worker's committed and unmatched rows per table and its transactions to the totals.
    void addCounters(ApplyCounters& counters) const;

private:
    struct Item {
        std::optional<RowChange> change;  // empty for a barrier
        uint64_t sequence = 0;            // dispatch sequence, or barrier generation
        size_t bytes = 0;                 // the change's footprint, counted in queuedBytes_
    };

    bool hasRoom() const;  // with queueMutex_ held

    void waitForRoom(std::unique_lock<std::mutex>& lock);
    bool worthWaking() const;  // with queueMutex_ held
    void takeQueued();         // with queueMutex_ held: queued changes into the pending batch
    void notifyRoom();         // with queueMutex_ held: wakes producers waiting for room
    void run();
    void commitBatch();
    bool commitPending();  // true when the batch committed
    // The pending batch, retried on lock conflicts; throws what the downstream said. `unmatched` gets
    // the rows of the committed attempt that found nothing, per table.
    void executePending(std::map<schema::TableName, uint64_t>& unmatched);
    std::optional<ApplyFailure> findFailingRow();

    size_t index_;
    WorkerSettings settings_;
    DmlBuilder builder_;
    std::optional<AppliedMarkWriter> marks_;
    DmlStatement marksStatement_;
    std::vector<uint64_t> affected_;  // per statement of the batch being committed
    FailedCheck failed_;
    FailureSink report_;
    CommitSlots& slots_;

    mutable std::mutex queueMutex_;
    std::condition_variable itemAvailable_;
    std::condition_variable roomAvailable_;
    std::condition_variable barrierPassed_;
    RingQueue<Item> queue_;
    size_t queuedBytes_ = 0;
    bool stopping_ = false;
    bool waitingForWork_ = false;  // a push wakes the worker only then: no futex call per row under load
    int producersWaiting_ = 0;
    uint64_t barrierDone_ = 0;

    std::mutex executorMutex_;  // held while a batch runs; replaceExecutor waits for it
    std::unique_ptr<DmlSession> executor_;
    std::vector<RowChange> pending_;  // taken from the queue, not yet committed
    uint64_t pendingLastSequence_ = 0;
    std::chrono::steady_clock::time_point pendingSince_;  // when the batch got its first row
    std::chrono::steady_clock::time_point lastTaken_;     // when the worker last took a row
    std::atomic<size_t> pendingCount_{0};
    std::atomic<uint64_t> committedSequence_{0};
    std::atomic<uint64_t> pushedSequence_{0};

    mutable std::mutex countersMutex_;
    std::map<schema::TableName, uint64_t> rowsByTable_;
    std::map<schema::TableName, uint64_t> unmatchedByTable_;
    uint64_t transactions_ = 0;

    std::thread thread_;
};

}  // namespace syncscope::apply
