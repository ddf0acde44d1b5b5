#include "engine/apply/worker_pool.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>
#include <algorithm>

#include <cctype>
#include <sstream>

#include <spdlog/spdlog.h>

#include "engine/apply/causality_keys.h"
#include "engine/apply/downstream_connection.h"
#include "engine/apply/quoted_name.h"
#include "engine/apply/worker_session.h"

namespace syncscope::apply {

namespace {

std::string unhex(const std::string& hex) {
    auto nibble = [](char c) { return c <= '9' ? c - '0' : (c & ~0x20) - 'A' + 10; };
    std::string bytes;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) {
        bytes.push_back(static_cast<char>(nibble(hex[i]) * 16 + nibble(hex[i + 1])));
    }
    return bytes;
}

}  // namespace

WorkerPool::WorkerPool(WorkerPoolSettings settings)
    : settings_(std::move(settings)),
      dispatcher_(settings_.workerCount == 0 ? 1 : settings_.workerCount),
      collations_(
          [this](const std::string& charset, const std::string& collation, const std::vector<std::string>& characters) {
              return characterWeights(charset, collation, characters);
          }),
      slots_(dispatcher_.workerCount(), settings_.adaptiveConcurrency) {
    size_t count = dispatcher_.workerCount();
    settings_.worker.queueBytes = std::max(WorkerPoolSettings::kMinWorkerQueueBytes, settings_.queueBytes / count);
    workers_.reserve(count);
    for (size_t i = 0; i < count; ++i) {
        auto executor = connectWorker();
        if (i == 0) {
            settings_.worker.foreignKeyChecks = executor->readForeignKeyChecks();
        }
        workers_.push_back(std::make_unique<ApplyWorker>(
            i, settings_.worker, std::move(executor), [this] { return failed(); },
            [this](ApplyFailure failure) { report(std::move(failure)); }, slots_));
    }
}

WorkerPool::~WorkerPool() {
    stop();
}

std::unique_ptr<DmlSession> WorkerPool::connectWorker() const {
    if (settings_.connect) {
        return settings_.connect();
    }
    return connectWorkerSession(settings_.downstream, settings_.sessionVariables);
}

std::vector<std::string> WorkerPool::characterWeights(const std::string& charset, const std::string& collation,
                                                      const std::vector<std::string>& characters) {
    // Names from information_schema, spliced into the SQL: only plain names are accepted.
    if (!isPlainSqlName(charset) || !isPlainSqlName(collation)) {
        throw DownstreamError("collation '" + collation + "' of charset '" + charset + "' is not a plain name", 0);
    }
    constexpr size_t kCharactersPerQuery = 256;
    std::vector<std::string> weights;
    try {
        if (!weightsConnection_) {
            weightsConnection_ = connectDownstream(settings_.downstream);
        }
        for (size_t begin = 0; begin < characters.size(); begin += kCharactersPerQuery) {
            size_t end = std::min(characters.size(), begin + kCharactersPerQuery);
            std::string sql = "SELECT ";
            for (size_t i = begin; i < end; ++i) {
                sql += (i == begin ? "" : ", ") + std::string("HEX(WEIGHT_STRING(CONVERT(CAST(? AS BINARY) USING ") +
                       charset + ") COLLATE " + collation + "))";
            }
            std::unique_ptr<sql::PreparedStatement> statement(weightsConnection_->prepareStatement(sql));
            std::vector<std::unique_ptr<std::istringstream>> streams;  // sent as bytes, not as utf8mb4 text
            for (size_t i = begin; i < end; ++i) {
                streams.push_back(std::make_unique<std::istringstream>(characters[i]));
                statement->setBlob(static_cast<unsigned int>(i - begin + 1), streams.back().get());
            }
            std::unique_ptr<sql::ResultSet> result(statement->executeQuery());
            if (!result->next()) {
                throw DownstreamError("WEIGHT_STRING under " + collation + " returned no row", 0);
            }
            for (size_t i = begin; i < end; ++i) {
                auto column = static_cast<unsigned int>(i - begin + 1);
                if (result->isNull(column)) {
                    throw DownstreamError("WEIGHT_STRING under " + collation + " is NULL for a character", 0);
                }
                weights.push_back(unhex(result->getString(column)));
            }
        }
    } catch (const sql::SQLException& e) {
        weightsConnection_.reset();
        throw DownstreamError(std::string("cannot read character weights of collation ") + collation + ": " + e.what(),
                              e.getErrorCode());
    }
    return weights;
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
    uint64_t foldingStopped = collations_.foldingStopped();
    causalityKeysInto(change, &collations_, keys_);
    carryKeys(change, keys_);
    uint64_t sequence = ++nextSequence_;
    // A collation that stopped folding hashes a value differently than a moment ago: drain first.
    bool stale = collations_.foldingStopped() != foldingStopped;
    // New rows go to one worker more than transactions are allowed at once (adaptive concurrency): the
    // same rows in fewer, bigger batches than spread over every worker that may not run anyway, and one
    // worker more than the limit, so that when the downstream is what keeps rows waiting a worker waits
    // for a slot (which is what tells the controller to try a higher limit).
    if (dispatchesSinceLimitRead_++ % kLimitReadInterval == 0) {
        spreadOver_ = slots_.view().allowed + 1;
    }
    size_t spreadOver = spreadOver_;
    auto decision =
        stale ? Dispatcher::Decision{true, 0} : dispatcher_.assign(keys_, sequence, committedSequences(), spreadOver);
    if (decision.conflict) {
        ++conflicts_;
        lock.unlock();
        if (!barrier().ok()) {
            return false;
        }
        lock.lock();
        dispatcher_.clear();
        decision = dispatcher_.assign(keys_, sequence, committedSequences(), spreadOver);
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
    // Each answer is a true lower bound, but a change pushed between the reads above bounds this one by
    // its worker's older commit: an answer may come out below an earlier one. The status view and the
    // flush both read it, so it only moves forward (a flush that saw S must never show applied < S).
    uint64_t high = appliedHigh_.load(std::memory_order_acquire);
    while (applied > high && !appliedHigh_.compare_exchange_weak(high, applied, std::memory_order_acq_rel)) {
    }
    return std::max(applied, high);
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
    BarrierResult result{firstError()};
    if (result.ok()) {
        // Everything dispatched has committed: no later answer of appliedSequence() may show less.
        uint64_t dispatched = lastDispatched_.load(std::memory_order_acquire);
        uint64_t high = appliedHigh_.load(std::memory_order_acquire);
        while (dispatched > high && !appliedHigh_.compare_exchange_weak(high, dispatched, std::memory_order_acq_rel)) {
        }
    }
    return result;
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
        if (!stopped_ && settings_.adaptiveConcurrency) {
            ConcurrencyView view = slots_.view();
            spdlog::info(
                "apply concurrency settled at {} of {} transactions at once after {} changes: {}; {} barriers, "
                "{} of them for a change whose keys were held by two workers",
                view.allowed, view.ceiling, view.changes, view.reason, barriers_.load(), conflicts_.load());
        }
        stopped_ = true;
    }
    for (auto& worker : workers_) {
        worker->stop();
    }
}

ApplyCounters WorkerPool::counters() const {
    ApplyCounters counters;
    for (const auto& worker : workers_) {
        worker->addCounters(counters);
        counters.queueDepths.push_back(worker->queueDepth());
        counters.pendingRows.push_back(worker->pendingRows());
        counters.queuedBytes += worker->queuedBytes();
    }
    for (const auto& [table, rows] : counters.rowsAppliedByTable) {
        counters.rowsApplied += rows;
    }
    for (const auto& [table, rows] : counters.rowsUnmatchedByTable) {
        counters.rowsUnmatched += rows;
    }
    counters.errors = errorCount_.load();
    counters.barriers = barriers_.load();
    counters.conflicts = conflicts_.load();
    counters.concurrency = slots_.view();
    return counters;
}

}  // namespace syncscope::apply
