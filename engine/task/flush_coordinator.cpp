#include "engine/task/flush_coordinator.h"

#include <algorithm>
#include <string_view>

#include <spdlog/spdlog.h>

#include "engine/apply/worker_pool.h"
#include "engine/checkpoint/checkpoint_table.h"

namespace syncscope::task {

namespace {

using binlog::Location;
using binlog::PositionOrder;
using Steady = std::chrono::steady_clock;

bool atOrBefore(const Location& event, const Location& limit) {
    if (limit.isEmpty()) {
        return false;
    }
    PositionOrder order = event.compare(limit);
    // Incomparable: stay safe (safe mode is on for anything that cannot be ordered).
    return order == PositionOrder::Before || order == PositionOrder::Same || order == PositionOrder::Incomparable;
}

// The later of two locations; `a` when they cannot be ordered or `b` is empty.
Location latest(const Location& a, const Location& b) {
    if (a.isEmpty()) {
        return b;
    }
    return !b.isEmpty() && b.compare(a) == PositionOrder::After ? b : a;
}

}  // namespace

void TableCheckpointWriter::write(const checkpoint::FlushPlan& plan) {
    if (plan.onlineDdl.empty() || online_ == nullptr) {
        table_.flush(sourceId_, plan);
        return;
    }
    table_.flush(sourceId_, plan, [&] { online_->write(sourceId_, plan.onlineDdl); });
}

void TableCheckpointWriter::writeExitSafePoint(const Location& persistedGlobal, const Location& mark) {
    table_.flushExitSafePoint(sourceId_, persistedGlobal, mark);
}

std::optional<apply::ApplyFailure> PoolCommitFrontier::drain() {
    return pool_.barrier().failure;
}

uint64_t PoolCommitFrontier::committedSequence() const {
    return pool_.appliedSequence();
}

uint64_t PoolCommitFrontier::dispatchedSequence() const {
    return pool_.lastDispatchedSequence();
}

std::optional<apply::ApplyFailure> PoolCommitFrontier::firstFailure() const {
    return pool_.errorCount() > 0 ? pool_.firstError() : std::nullopt;
}

FlushCoordinator::FlushCoordinator(FlushCoordinatorSettings settings, checkpoint::CheckpointTracker& tracker,
                                   CheckpointWriter& writer, CommitFrontier& workers, OnWorkerFailure onFailure,
                                   OnPersisted onPersisted)
    : settings_(std::move(settings)),
      tracker_(tracker),
      writer_(writer),
      workers_(workers),
      onFailure_(std::move(onFailure)),
      onPersisted_(std::move(onPersisted)) {}

std::string FlushStats::text() const {
    return fmt::format(
        "{} flushes ({} interval, {} barrier), {:.1f} ms in all, longest {:.1f} ms; {} exit-safe marks, "
        "{:.1f} ms",
        intervalFlushes + barrierFlushes, intervalFlushes, barrierFlushes, flushMilliseconds, longestFlushMilliseconds,
        exitSafeMarks, exitSafeMilliseconds);
}

void FlushCoordinator::openSafeModeWindow(const Location& global, const Location& exitSafe,
                                          const std::optional<Location>& upstreamEnd) {
    exitSafeMark_ = exitSafe;
    exitSafeAtStart_ = exitSafe;
    safeModeUntil_ = exitSafe;
    uncleanStart_ = exitSafe.compare(global) == PositionOrder::After;
    if (uncleanStart_ && upstreamEnd && upstreamEnd->compare(exitSafe) == PositionOrder::Before) {
        safeModeUntil_ = *upstreamEnd;
    }
}

bool FlushCoordinator::inSafeModeWindow(const Location& at) const {
    return atOrBefore(at, safeModeUntil_);
}

bool FlushCoordinator::inReplayWindow(const Location& at) const {
    return uncleanStart_ && atOrBefore(at, exitSafeAtStart_);
}

const char* flushReasonName(FlushReason reason) {
    switch (reason) {
        case FlushReason::Interval:
            return "interval";
        case FlushReason::BeforeDdl:
            return "before ddl";
        case FlushReason::AfterDdl:
            return "ddl";
        case FlushReason::AtStop:
            return "stop";
    }
    return "unknown";
}

DispatchAdmission FlushCoordinator::admit(const Location& at) {
    raiseExitSafeMark(at.position());
    lastDispatched_ = at;
    return {inSafeModeWindow(at), inReplayWindow(at)};
}

void FlushCoordinator::raiseExitSafeMark(const binlog::BinlogPosition& position) {
    if (!exitSafeMark_.position().isEmpty() && position <= exitSafeMark_.position()) {
        return;
    }
    // Never dispatch past the persisted mark: write a new one far enough ahead to be rare.
    Location mark(binlog::BinlogPosition(position.file(), position.offset() + settings_.exitSafeStepBytes));
    auto started = Steady::now();
    writer_.writeExitSafePoint(tracker_.globalPersisted(), mark);
    ++stats_.exitSafeMarks;
    stats_.exitSafeMilliseconds += std::chrono::duration<double, std::milli>(Steady::now() - started).count();
    tracker_.markExitSafePersisted(mark);
    exitSafeMark_ = mark;
}

void FlushCoordinator::checkWorkers() {
    if (auto failure = workers_.firstFailure()) {
        onFailure_(*failure);
    }
}

// The interval flush does not stop the workers: at a group boundary it plans the flush (the points in
// memory, and the dispatch sequence of the last change before them), dispatching goes on, and the plan
// is written once the workers have committed every change up to that sequence and no worker error
// happened (invariant 1, without a barrier's stall).
void FlushCoordinator::atBoundary(uint64_t groupSeq) {
    completePending();
    if (pending_ || Steady::now() - lastFlush_ < settings_.interval) {
        return;
    }
    pending_ = PendingFlush{tracker_.planFlush(exitSafeMark_), workers_.dispatchedSequence(), groupSeq};
    completePending();  // nothing in flight: written at once
}

void FlushCoordinator::completePending() {
    if (!pending_) {
        return;
    }
    checkWorkers();  // an error: never written (the session fails here)
    if (workers_.committedSequence() < pending_->lastSequence) {
        return;
    }
    // A failed worker counts the changes it dropped as done: look for errors again after the sequence
    // (the error is counted before the drop is published).
    checkWorkers();
    checkpoint::FlushPlan plan = std::move(pending_->plan);
    uint64_t groupSeq = pending_->groupSeq;
    pending_.reset();
    plan.exitSafePoint = exitSafeMark_;  // it may have been raised since: never lower the persisted mark
    persist(std::move(plan), FlushReason::Interval, groupSeq);
}

void FlushCoordinator::flushNow(FlushReason reason, uint64_t groupSeq, const Location& ddlAt) {
    // The barrier: every change dispatched so far has committed, and no worker failed since the last
    // flush. Only then may the points move (invariant 1).
    if (auto failure = workers_.drain()) {
        onFailure_(*failure);
    }
    pending_.reset();  // this flush covers more
    Location exitSafe = exitSafeMark_;
    if (reason == FlushReason::AtStop) {
        // Nothing past the last dispatched event was applied by this session; an earlier, unclean one
        // may have applied up to the window this session opened with (never past the upstream's end
        // at the start). A clean stop after everything committed leaves exit-safe = global, so the
        // next start is not in safe mode.
        exitSafe = latest(latest(tracker_.globalInMemory(), lastDispatched_), safeModeUntil_);
    } else if (reason == FlushReason::BeforeDdl && !ddlAt.isEmpty()) {
        // Before a DDL: nothing past it is dispatched, so the mark may stand exactly at it (ddl_applier.h).
        exitSafe = latest(Location(ddlAt.position()), safeModeUntil_);
    }
    // The global point in memory is the end of the last complete group; table points of a group cut
    // short were never moved (they move at the group's end).
    checkpoint::FlushPlan plan = tracker_.planFlush(exitSafe);
    if (barrierRows_) {
        plan.onlineDdl = barrierRows_();
    }
    persist(std::move(plan), reason, groupSeq);
}

void FlushCoordinator::persist(checkpoint::FlushPlan plan, FlushReason reason, uint64_t groupSeq) {
    auto started = Steady::now();
    writer_.write(plan);
    tracker_.markPersisted(plan);
    exitSafeMark_ = plan.exitSafePoint;
    lastFlush_ = Steady::now();
    double milliseconds = std::chrono::duration<double, std::milli>(lastFlush_ - started).count();
    ++(reason == FlushReason::Interval ? stats_.intervalFlushes : stats_.barrierFlushes);
    stats_.flushMilliseconds += milliseconds;
    stats_.longestFlushMilliseconds = std::max(stats_.longestFlushMilliseconds, milliseconds);
    spdlog::debug("checkpoint flushed ({}) at {} in {:.1f} ms", flushReasonName(reason), plan.globalPoint.toString(),
                  milliseconds);
    onPersisted_(plan, milliseconds, groupSeq);
}

}  // namespace syncscope::task
