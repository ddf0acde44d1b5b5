#include "engine/apply/apply_worker.h"

#include <algorithm>
#include <span>

#include "engine/apply/downstream_connection.h"
#include "engine/common/error.h"
#include "engine/common/server_errors.h"
#include "engine/common/thread_priority.h"

namespace syncscope::apply {

ApplyWorker::ApplyWorker(size_t index, WorkerSettings settings, std::unique_ptr<DmlSession> executor,
                         FailedCheck failed, FailureSink report, CommitSlots& commitSlots)
    : index_(index),
      settings_(settings),
      builder_(settings.multipleRows, DmlBuilder::kDefaultMaxRowsPerStatement, settings.foreignKeyChecks,
               settings.compact),
      failed_(std::move(failed)),
      report_(std::move(report)),
      slots_(commitSlots),
      executor_(std::move(executor)) {
    if (executor_) {
        executor_->setSessionForeignKeyChecks(settings_.foreignKeyChecks);
    }
    if (!settings_.appliedMarks.taskName.empty()) {
        marks_.emplace(settings_.appliedMarks, settings_.sourceId);
    }
    if (settings_.batch == 0) {
        settings_.batch = 1;
    }
    if (settings_.queueCapacity == 0) {
        settings_.queueCapacity = 1;
    }
    settings_.maxBatchAge = std::max(settings_.maxBatchAge, settings_.idleCommit);  // never sooner than idle
    thread_ = std::thread([this] {
        applyEngineThreadPriority();
        run();
    });
}

ApplyWorker::~ApplyWorker() {
    stop();
}

bool ApplyWorker::hasRoom() const {
    return queue_.empty() || (queue_.size() < settings_.queueCapacity && queuedBytes_ < settings_.queueBytes);
}

void ApplyWorker::waitForRoom(std::unique_lock<std::mutex>& lock) {
    if (hasRoom() || stopping_) {
        return;
    }
    if (waitingForWork_) {
        itemAvailable_.notify_one();  // a full queue is always worth waking for
    }
    ++producersWaiting_;
    roomAvailable_.wait(lock, [&] { return hasRoom() || stopping_; });
    --producersWaiting_;
}

void ApplyWorker::push(RowChange change, uint64_t sequence) {
    std::unique_lock lock(queueMutex_);
    waitForRoom(lock);
    if (stopping_) {
        throw Error("apply worker " + std::to_string(index_) + " is stopped; cannot queue " + change.describe());
    }
    size_t bytes = change.footprintBytes();
    queuedBytes_ += bytes;
    queue_.push_back(Item{std::move(change), sequence, bytes});
    pushedSequence_.store(sequence, std::memory_order_release);
    if (waitingForWork_ && worthWaking()) {
        itemAvailable_.notify_one();
    }
}

// A worker that holds a partial batch waits for its idle deadline anyway: waking it for every row
// would cost two context switches a row. It is woken for its first row (which starts the idle clock),
// when the rows it holds and the queued ones fill a batch, and when the queue is full.
bool ApplyWorker::worthWaking() const {
    size_t held = pendingCount_.load(std::memory_order_relaxed);
    return (held == 0 && queue_.size() == 1) || held + queue_.size() >= settings_.batch || !hasRoom();
}

void ApplyWorker::pushBarrier(uint64_t generation) {
    std::unique_lock lock(queueMutex_);
    waitForRoom(lock);
    if (stopping_) {
        barrierDone_ = std::max(barrierDone_, generation);  // a stopped worker has nothing left to commit
        return;
    }
    queue_.push_back(Item{std::nullopt, generation});
    if (waitingForWork_) {
        itemAvailable_.notify_one();
    }
}

void ApplyWorker::waitBarrier(uint64_t generation) {
    std::unique_lock lock(queueMutex_);
    barrierPassed_.wait(lock, [&] { return barrierDone_ >= generation; });
}

void ApplyWorker::replaceExecutor(std::unique_ptr<DmlSession> executor) {
    std::lock_guard lock(executorMutex_);
    executor_ = std::move(executor);
    if (executor_) {
        executor_->setSessionForeignKeyChecks(settings_.foreignKeyChecks);
    }
}

void ApplyWorker::stop() {
    {
        std::lock_guard lock(queueMutex_);
        stopping_ = true;
    }
    itemAvailable_.notify_all();
    roomAvailable_.notify_all();
    if (thread_.joinable()) {
        thread_.join();
    }
}

size_t ApplyWorker::queueDepth() const {
    std::lock_guard lock(queueMutex_);
    return queue_.size();
}

size_t ApplyWorker::queuedBytes() const {
    std::lock_guard lock(queueMutex_);
    return queuedBytes_;
}

size_t ApplyWorker::pendingRows() const {
    return pendingCount_.load(std::memory_order_relaxed);
}

void ApplyWorker::addCounters(ApplyCounters& counters) const {
    std::lock_guard lock(countersMutex_);
    for (const auto& [table, rows] : rowsByTable_) {
        counters.rowsAppliedByTable[table] += rows;
    }
    for (const auto& [table, rows] : unmatchedByTable_) {
        counters.rowsUnmatchedByTable[table] += rows;
    }
    counters.transactionsCommitted += transactions_;
}

void ApplyWorker::run() {
    std::unique_lock lock(queueMutex_);
    auto hasWork = [&] { return !queue_.empty() || stopping_; };
    for (;;) {
        if (queue_.empty()) {
            if (stopping_) {
                lock.unlock();
                commitBatch();
                lock.lock();
                barrierDone_ = UINT64_MAX;  // nobody waits for a stopped worker
                barrierPassed_.notify_all();
                return;
            }
            waitingForWork_ = true;
            bool idle = false;
            if (pending_.empty()) {
                itemAvailable_.wait(lock, hasWork);
            } else {
                auto deadline = std::min(lastTaken_ + settings_.idleCommit, pendingSince_ + settings_.maxBatchAge);
                idle = !itemAvailable_.wait_until(lock, deadline, hasWork);
            }
            waitingForWork_ = false;
            if (idle) {
                lock.unlock();
                commitBatch();
                lock.lock();
            }
            continue;
        }
        if (!queue_.front().change) {
            const uint64_t generation = queue_.front().sequence;
            queue_.pop_front();
            notifyRoom();
            lock.unlock();
            commitBatch();
            lock.lock();
            barrierDone_ = std::max(barrierDone_, generation);
            barrierPassed_.notify_all();
            continue;
        }
        const bool started = pending_.empty();
        takeQueued();
        notifyRoom();
        lock.unlock();
        auto now = std::chrono::steady_clock::now();
        if (started) {
            pendingSince_ = now;
        }
        lastTaken_ = now;
        pendingCount_.store(pending_.size(), std::memory_order_relaxed);
        if (pending_.size() >= settings_.batch || now >= pendingSince_ + settings_.maxBatchAge) {
            commitBatch();
        }
        lock.lock();
    }
}

// Every queued change up to the next barrier that the batch has room for (at least one), under the one lock
// the caller holds: taking them one lock at a time contended with the reader's pushes under the same lock,
// which cost both threads a futex call and often a context switch per change.
void ApplyWorker::takeQueued() {
    const size_t room = pending_.size() < settings_.batch ? settings_.batch - pending_.size() : 1;
    for (size_t taken = 0; taken < room && !queue_.empty() && queue_.front().change; ++taken) {
        Item& item = queue_.front();
        queuedBytes_ -= item.bytes;
        pending_.push_back(std::move(*item.change));
        pendingLastSequence_ = item.sequence;
        queue_.pop_front();
    }
}

void ApplyWorker::notifyRoom() {
    if (producersWaiting_ > 0) {
        roomAvailable_.notify_all();
    }
}

void ApplyWorker::commitBatch() {
    if (pending_.empty()) {
        return;
    }
    {
        std::lock_guard lock(executorMutex_);
        // After an error anywhere in the pool nothing more is committed until the DBA or the task
        // resets it: the rows are dropped here and applied again after the resume.
        if (!failed_() && executor_) {
            bool committed = false;
            {
                CommitSlots::Slot slot(slots_);
                committed = commitPending();
                if (committed) {
                    slot.committed(pending_.size());
                }
            }
            // Between transactions, outside the slot: the read does not count as the batch's time.
            if (committed && slots_.takePurgeReading()) {
                slots_.purgeBacklogRead(executor_->readPurgeBacklog());
            }
        }
    }
    pending_.clear();
    pendingCount_.store(0, std::memory_order_relaxed);
    committedSequence_.store(pendingLastSequence_, std::memory_order_release);
}

void ApplyWorker::executePending(std::map<schema::TableName, uint64_t>& unmatched) {
    bool fold = true;
    for (int attempt = 0;; ++attempt) {
        unmatched.clear();
        try {
            std::vector<DmlStatement> statements = builder_.build(pending_, executor_->takesArrays(), fold);
            // In the same transaction: a table without a key is marked applied exactly when its rows are.
            if (marks_ && marks_->build(pending_, marksStatement_)) {
                statements.push_back(marksStatement_);
            }
            // One round trip for the batch's statements (DmlSession::executeAll), then the COMMIT on its own:
            // it must never reach the server before every statement is known to have succeeded.
            executor_->executeAll(statements, affected_);
            bool unfold = false;
            for (size_t i = 0; i < statements.size(); ++i) {
                if (affected_[i] < statements[i].mustMatch) {
                    unmatched[statements[i].table->name()] += statements[i].mustMatch - affected_[i];
                    unfold = unfold || statements[i].unfoldWhenUnmatched;
                }
            }
            if (unfold) {  // a folded DELETE + INSERT found no row: the INSERT must still write it
                executor_->rollback();
                fold = false;
                --attempt;
                continue;
            }
            executor_->commit();
            return;
        } catch (const DownstreamError& e) {
            bool lockConflict = e.code() == server_error::kDeadlock || e.code() == server_error::kLockWaitTimeout;
            if (!lockConflict || attempt >= settings_.lockRetries) {
                throw;
            }
            try {
                executor_->rollback();
            } catch (const DownstreamError&) {
                throw e;
            }
            std::this_thread::sleep_for(settings_.lockRetryPause * (attempt + 1));
        }
    }
}

bool ApplyWorker::commitPending() {
    try {
        std::map<schema::TableName, uint64_t> unmatched;
        executePending(unmatched);
        std::lock_guard lock(countersMutex_);
        ++transactions_;
        for (const auto& change : pending_) {
            ++rowsByTable_[change.target()];
        }
        for (const auto& [table, rows] : unmatched) {
            unmatchedByTable_[table] += rows;
        }
        return true;
    } catch (const SafeModeRefusal& e) {
        ApplyFailure failure;
        failure.change = e.change();
        failure.message = e.what();
        failure.errorClass = ErrorClass::NeedsDba;
        failure.worker = index_;
        try {
            executor_->rollback();  // nothing was written: the batch's statements are built first
        } catch (const DownstreamError&) {
        }
        report_(std::move(failure));
    } catch (const DownstreamError& e) {
        ApplyFailure failure;
        failure.change = pending_.front();
        failure.rowIdentified = false;
        failure.sql = e.sql();
        failure.code = e.code();
        failure.message = e.serverMessage().empty() ? std::string(e.what()) : e.serverMessage();
        failure.errorClass = classifyDownstreamError(e.code());
        try {
            executor_->rollback();
        } catch (const DownstreamError&) {
            // The connection is gone; the server rolls the transaction back itself.
        }
        // A passing error (lost connection, deadlock) would not fail again on one row; only a row's
        // own error is worth pinning down.
        if (failure.errorClass == ErrorClass::NeedsDba) {
            if (auto row = findFailingRow()) {
                failure = std::move(*row);
            }
        }
        failure.worker = index_;
        report_(std::move(failure));
    } catch (const std::exception& e) {
        ApplyFailure failure;
        failure.change = pending_.front();
        failure.rowIdentified = false;
        failure.message = e.what();
        failure.worker = index_;
        try {
            executor_->rollback();
        } catch (const DownstreamError&) {
        }
        report_(std::move(failure));
    }
    return false;
}

std::optional<ApplyFailure> ApplyWorker::findFailingRow() {
    std::optional<ApplyFailure> found;
    try {
        for (size_t i = 0; i < pending_.size() && !found; ++i) {
            for (const auto& statement : builder_.build(std::span<const RowChange>(&pending_[i], 1))) {
                try {
                    executor_->execute(statement);
                } catch (const DownstreamError& e) {
                    if (classifyDownstreamError(e.code()) == ErrorClass::NeedsDba) {
                        found = ApplyFailure{pending_[i],
                                             true,
                                             e.sql(),
                                             e.code(),
                                             e.serverMessage().empty() ? std::string(e.what()) : e.serverMessage(),
                                             ErrorClass::NeedsDba,
                                             index_};
                    }
                    throw;
                }
            }
        }
    } catch (const std::exception&) {
        // Either the row was found or the replay hit a passing error: the caller reports what it has.
    }
    try {
        executor_->rollback();
    } catch (const DownstreamError&) {
    }
    return found;
}

}  // namespace syncscope::apply
