#include "engine/apply/worker_pool.h"

#include <cppconn/connection.h>
#include <algorithm>

#include <cctype>

#include "engine/apply/causality_keys.h"
#include "engine/apply/downstream_connection.h"
#include "engine/apply/worker_session.h"

namespace syncscope::apply {

WorkerPool::WorkerPool(WorkerPoolSettings settings)
    : settings_(std::move(settings)), dispatcher_(settings_.workerCount == 0 ? 1 : settings_.workerCount) {
    size_t count = dispatcher_.workerCount();
    workers_.reserve(count);
    for (size_t i = 0; i < count; ++i) {
        workers_.push_back(std::make_unique<ApplyWorker>(
            i, settings_.worker, connectWorker(), [this] { return failed(); },
            [this](ApplyFailure failure) { report(std::move(failure)); }));
    }
}

WorkerPool::~WorkerPool() {
    stop();
}

std::unique_ptr<DmlExecutor> WorkerPool::connectWorker() const {
    return connectWorkerSession(settings_.downstream, settings_.sessionVariables);
}

void WorkerPool::report(ApplyFailure failure) {
    std::lock_guard lock(failureMutex_);
    errorCount_.fetch_add(1);
    if (!firstError_) {
        firstError_ = std::move(failure);
    }
    failed_.store(true, std::memory_order_release);
}

const std::vector<uint64_t>& WorkerPool::committedSequences() {
    committedBuffer_.resize(workers_.size());
    for (size_t i = 0; i < workers_.size(); ++i) {
        committedBuffer_[i] = workers_[i]->committedSequence();
    }
    return committedBuffer_;
}

bool WorkerPool::dispatch(RowChange change) {
    std::unique_lock lock(dispatchMutex_);
    if (failed() || stopped_) {
        return false;
    }
    auto keys = causalityKeys(change);
    uint64_t sequence = ++nextSequence_;
    auto decision = dispatcher_.assign(keys, sequence, committedSequences());
    if (decision.conflict) {
        ++conflicts_;
        lock.unlock();
        if (!barrier().ok()) {
            return false;
        }
        lock.lock();
        dispatcher_.clear();
        decision = dispatcher_.assign(keys, sequence, committedSequences());
    }
    workers_[decision.worker]->push(std::move(change), sequence);
    lastDispatched_.store(sequence, std::memory_order_release);
    return true;
}

uint64_t WorkerPool::appliedSequence() const {
    // Read the dispatched mark first: every change up to it sits on some worker that has queued it, so
    // that worker either has committed everything it was given (then the change too) or bounds the
    // answer by what it has committed (its queue is in order).
    uint64_t applied = lastDispatched_.load(std::memory_order_acquire);
    for (const auto& worker : workers_) {
        uint64_t pushed = worker->pushedSequence();
        uint64_t committed = worker->committedSequence();
        if (committed < pushed) {
            applied = std::min(applied, committed);
        }
    }
    return applied;
}

BarrierResult WorkerPool::barrier() {
    std::lock_guard lock(dispatchMutex_);
    ++barriers_;
    uint64_t generation = ++barrierGeneration_;
    for (auto& worker : workers_) {
        worker->pushBarrier(generation);
    }
    for (auto& worker : workers_) {
        worker->waitBarrier(generation);
    }
    return BarrierResult{firstError()};
}

std::optional<ApplyFailure> WorkerPool::firstError() const {
    std::lock_guard lock(failureMutex_);
    return firstError_;
}

void WorkerPool::reset() {
    barrier();  // every worker has dropped what it held
    std::lock_guard lock(dispatchMutex_);
    for (auto& worker : workers_) {
        worker->replaceExecutor(connectWorker());
    }
    dispatcher_.clear();
    std::lock_guard failureLock(failureMutex_);
    firstError_.reset();
    failed_.store(false, std::memory_order_release);
}

void WorkerPool::stop() {
    {
        std::lock_guard lock(dispatchMutex_);
        stopped_ = true;
    }
    for (auto& worker : workers_) {
        worker->stop();
    }
}

ApplyCounters WorkerPool::counters() const {
    ApplyCounters counters;
    for (const auto& worker : workers_) {
        worker->addCounters(counters.rowsAppliedByTable, counters.transactionsCommitted);
        counters.queueDepths.push_back(worker->queueDepth());
        counters.pendingRows.push_back(worker->pendingRows());
    }
    for (const auto& [table, rows] : counters.rowsAppliedByTable) {
        counters.rowsApplied += rows;
    }
    counters.errors = errorCount_.load();
    counters.barriers = barriers_.load();
    counters.conflicts = conflicts_.load();
    return counters;
}

}  // namespace syncscope::apply
