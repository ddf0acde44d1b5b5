// The apply workers of one task: changes are spread over `worker-count` workers by causality key, so
// changes to one row stay in order; a conflict between workers, and every DDL, is a barrier. barrier()
// is what the checkpoint flush stands on: it returns only when every change dispatched before it has
// committed downstream, and it reports any worker error since the last reset.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/apply/apply_counters.h"
#include "engine/apply/apply_failure.h"
#include "engine/apply/apply_worker.h"
#include "engine/apply/collation_folder.h"
#include "engine/apply/commit_slots.h"
#include "engine/apply/dispatcher.h"
#include "engine/common/server_settings.h"

namespace sql {
class Connection;
}

namespace syncscope::apply {

struct WorkerPoolSettings {
    static constexpr size_t kDefaultWorkerCount = 16;  // DM's worker-count default
    static constexpr size_t kDefaultBatch = 100;       // DM's batch default
    // What all worker queues together may hold (split evenly, at least kMinWorkerQueueBytes each).
    static constexpr size_t kDefaultQueueBytes = 64u << 20;
    static constexpr size_t kMinWorkerQueueBytes = 1u << 20;

    ServerSettings downstream;
    size_t workerCount = kDefaultWorkerCount;  // the ceiling of transactions open at once
    // Finds how many transactions at once give the most rows/s (CommitSlots); off: workerCount at once.
    bool adaptiveConcurrency = true;
    size_t queueBytes = kDefaultQueueBytes;
    WorkerSettings worker{kDefaultBatch};
    // SET SESSION name = value on every worker connection, in order (DM's target-database session).
    // TIMESTAMP values are bound as UTC text, so time_zone must stay '+00:00'; foreign keys are not
    // ordered across workers, so their checks are off as in DM.
    std::vector<std::pair<std::string, std::string>> sessionVariables{{"time_zone", "+00:00"},
                                                                      {"foreign_key_checks", "0"}};
    // Opens a worker's session; unset: a connection to `downstream` with `sessionVariables` set. Tests
    // of the pipeline pass scripted sessions here.
    DmlSessionFactory connect;
};

struct BarrierResult {
    std::optional<ApplyFailure> failure;  // the first worker error since the last reset
    bool ok() const { return !failure; }
};

class WorkerPool {
public:
    // Connects every worker; throws DownstreamError naming the server when one cannot connect.
    explicit WorkerPool(WorkerPoolSettings settings);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    // Queues a change on the worker its keys choose; blocks while that worker's queue is full and,
    // on a conflict, until every worker has drained. Returns false, queueing nothing, when the pool
    // holds an error (see firstError()). One thread dispatches.
    bool dispatch(RowChange change);

    // Blocks until every change dispatched before it has committed (or, after an error, has been
    // dropped). ok() only when no worker error of any kind happened since the last reset.
    BarrierResult barrier();

    std::optional<ApplyFailure> firstError() const;
    // Worker errors since the pool was made; never goes back, so a flusher can tell whether any
    // happened between two of its flushes.
    uint64_t errorCount() const { return errorCount_.load(); }

    // After an error: drops whatever is still queued, reconnects every worker and accepts work again.
    // Throws DownstreamError when a worker cannot reconnect (the pool then stays failed).
    void reset();
    void stop();

    // The sequence of the last change dispatched (0 before the first).
    uint64_t lastDispatchedSequence() const { return lastDispatched_.load(std::memory_order_acquire); }
    // A sequence S such that every change dispatched with a sequence up to S has committed downstream
    // (a lower bound: it may trail the truth by a batch, never lead it). From any thread. After a worker
    // error it counts the dropped changes too: ask only while firstError() is empty. Never lower than an
    // answer given before: a dispatch racing the per-worker reads only makes one answer more cautious.
    uint64_t appliedSequence() const;

    ApplyCounters counters() const;
    size_t workerCount() const { return workers_.size(); }

private:
    std::unique_ptr<DmlSession> connectWorker() const;
    // Each character's weight under a collation, from the downstream (CollationFolder's query); on
    // the dispatching thread, on a connection of its own opened at the first text key that needs it.
    std::vector<std::string> characterWeights(const std::string& charset, const std::string& collation,
                                              const std::vector<std::string>& characters);
    void report(ApplyFailure failure);
    bool failed() const { return failed_.load(std::memory_order_acquire); }
    // The last committed sequence of every worker, into a buffer reused for every dispatch.
    const std::vector<uint64_t>& committedSequences();

    WorkerPoolSettings settings_;

    std::mutex dispatchMutex_;  // dispatch, barrier and reset run one at a time
    Dispatcher dispatcher_;
    std::unique_ptr<sql::Connection> weightsConnection_;
    CollationFolder collations_;
    uint64_t nextSequence_ = 0;
    std::atomic<uint64_t> lastDispatched_{0};
    mutable std::atomic<uint64_t> appliedHigh_{0};  // the highest appliedSequence() answered
    std::vector<uint64_t> committedBuffer_;
    std::vector<uint64_t> keys_;  // the causality keys of the change being dispatched (capacity reused)
    // New rows are spread over this many workers: the concurrency limit + 1, read every few dispatches.
    static constexpr uint64_t kLimitReadInterval = 64;
    uint64_t dispatchesSinceLimitRead_ = 0;
    size_t spreadOver_ = 0;
    uint64_t barrierGeneration_ = 0;
    std::atomic<uint64_t> barriers_{0};  // atomics: counters() must never wait for a barrier
    std::atomic<uint64_t> conflicts_{0};

    mutable std::mutex failureMutex_;
    std::optional<ApplyFailure> firstError_;
    std::atomic<bool> failed_{false};
    std::atomic<uint64_t> errorCount_{0};
    bool stopped_ = false;
    CommitSlots slots_;  // before workers_: they hold a reference to it

    // Last, so that the worker threads (which call report() and failed()) are joined before any
    // member they use is destroyed, also when the constructor throws half-way.
    std::vector<std::unique_ptr<ApplyWorker>> workers_;
};

}  // namespace syncscope::apply
