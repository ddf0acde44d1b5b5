// Decides when the checkpoint is written and what (docs/design.md invariants 1, 2, 4 and 10). An interval
// flush is planned at a group boundary and written once the workers' commit frontier has passed it,
// never after a worker error; DDL and stop flushes are barriers through every worker. It also keeps
// safe mode's window and the exit-safe high-water mark: nothing is dispatched past the persisted mark,
// which runs ahead in large steps, so after any stop, even SIGKILL, the window is known.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "engine/binlog/location.h"
#include "engine/checkpoint/checkpoint_tracker.h"

#include "engine/apply/apply_failure.h"

namespace syncscope::apply {
class WorkerPool;
}  // namespace syncscope::apply

namespace syncscope::checkpoint {
class CheckpointTable;
}

namespace syncscope::task {

// What the coordinator writes to: the checkpoint table (TableCheckpointWriter), or a test's recorder.
class CheckpointWriter {
public:
    virtual ~CheckpointWriter() = default;
    // Table rows and the global row in one transaction, global last (invariant 2).
    virtual void write(const checkpoint::FlushPlan& plan) = 0;
    // Only the exit-safe mark beside the already persisted global point.
    virtual void writeExitSafePoint(const binlog::Location& persistedGlobal, const binlog::Location& mark) = 0;
};

// What the coordinator reads of the workers: the "committed" contract. `committedSequence` counts a
// batch dropped after an error as done, so it is trusted only while `firstFailure` is empty.
class CommitFrontier {
public:
    virtual ~CommitFrontier() = default;
    // Waits until every dispatched change has committed, or reports the first failure.
    virtual std::optional<apply::ApplyFailure> drain() = 0;
    virtual uint64_t committedSequence() const = 0;
    virtual uint64_t dispatchedSequence() const = 0;
    virtual std::optional<apply::ApplyFailure> firstFailure() const = 0;
};

// The real ones.
class TableCheckpointWriter : public CheckpointWriter {
public:
    // `online` (may be null) writes the online schema changes' rows inside the flush's transaction.
    TableCheckpointWriter(checkpoint::CheckpointTable& table, std::string sourceId,
                          checkpoint::OnlineDdlStore* online = nullptr)
        : table_(table), sourceId_(std::move(sourceId)), online_(online) {}
    void write(const checkpoint::FlushPlan& plan) override;
    void writeExitSafePoint(const binlog::Location& persistedGlobal, const binlog::Location& mark) override;

private:
    checkpoint::CheckpointTable& table_;
    std::string sourceId_;
    checkpoint::OnlineDdlStore* online_;
};

class PoolCommitFrontier : public CommitFrontier {
public:
    explicit PoolCommitFrontier(apply::WorkerPool& pool) : pool_(pool) {}
    std::optional<apply::ApplyFailure> drain() override;
    uint64_t committedSequence() const override;
    uint64_t dispatchedSequence() const override;
    std::optional<apply::ApplyFailure> firstFailure() const override;

private:
    apply::WorkerPool& pool_;
};

// What the checkpoint writes cost this session: each one runs on the reader's thread, so its time is
// time the reader did not read (the figure behind checkpoint-flush-interval's cost).
struct FlushStats {
    uint64_t intervalFlushes = 0;
    uint64_t barrierFlushes = 0;  // DDL, stop and other barriers
    uint64_t exitSafeMarks = 0;
    double flushMilliseconds = 0;
    double longestFlushMilliseconds = 0;
    double exitSafeMilliseconds = 0;

    // "12 flushes (10 interval, 2 barrier), 43.1 ms in all, longest 9.8 ms; 3 exit-safe marks, 2.1 ms"
    std::string text() const;
};

// Why the checkpoint is written. An interval flush is planned at a group boundary and waits for the
// commit frontier; every other reason is a barrier through every worker.
enum class FlushReason {
    Interval,   // checkpoint-flush-interval passed
    BeforeDdl,  // every row before a DDL is downstream, the exit-safe point at the DDL
    AfterDdl,   // the DDL ran: its position is persisted at once
    AtStop,     // a graceful end: the safe-mode window closes as far as this session knows
};
const char* flushReasonName(FlushReason reason);  // "interval", "before ddl", "ddl", "stop"

// What the coordinator says of an event about to be dispatched (rows, a committed XA branch, a DDL).
struct DispatchAdmission {
    bool inSafeModeWindow = false;  // it may have been applied before this session
    bool inReplayWindow = false;    // it lies at or before the exit-safe point persisted before the session
};

struct FlushCoordinatorSettings {
    std::chrono::seconds interval{30};
    uint64_t exitSafeStepBytes = 0;
};

class FlushCoordinator {
public:
    // Called with the first worker error seen: it must not return (the session fails there).
    using OnWorkerFailure = std::function<void(const apply::ApplyFailure&)>;
    // Called after each write: what was written, how long it took, the last group it covers.
    using OnPersisted = std::function<void(const checkpoint::FlushPlan&, double milliseconds, uint64_t groupSeq)>;

    FlushCoordinator(FlushCoordinatorSettings settings, checkpoint::CheckpointTracker& tracker,
                     CheckpointWriter& writer, CommitFrontier& workers, OnWorkerFailure onFailure,
                     OnPersisted onPersisted);

    // The window of events that may have been applied before this session: from the persisted global
    // point to the persisted exit-safe point, narrowed to `upstreamEnd` when known (an unclean session
    // cannot have applied what was not written yet).
    void openSafeModeWindow(const binlog::Location& global, const binlog::Location& exitSafe,
                            const std::optional<binlog::Location>& upstreamEnd);
    bool uncleanStart() const { return uncleanStart_; }
    const FlushStats& stats() const { return stats_; }
    const binlog::Location& safeModeUntil() const { return safeModeUntil_; }
    // Whether an event at `at` may have been applied before this session (safe mode covers it).
    bool inSafeModeWindow(const binlog::Location& at) const;
    // Whether an event at `at` lies in the replay window: at or before the exit-safe point persisted
    // before this session (resume-from an earlier point, a skip, an unclean stop), where what is read
    // may have been applied before, DDL included (replayed_ddl_judge.h).
    bool inReplayWindow(const binlog::Location& at) const;

    // The one call before an event at `at` is dispatched (its rows handed to the workers, or a DDL run):
    // the persisted exit-safe mark is raised past it first (invariant 4), it counts as dispatched for
    // the stop flush's window, and the answer says which windows it lies in.
    DispatchAdmission admit(const binlog::Location& at);

    // At a group boundary: plans an interval flush when one is due, writes a planned one whose changes
    // have all committed.
    void atBoundary(uint64_t groupSeq);
    // A barrier flush: every worker drains first. BeforeDdl puts the exit-safe point exactly at `ddlAt`;
    // AtStop closes the safe-mode window as far as this session knows.
    void flushNow(FlushReason reason, uint64_t groupSeq, const binlog::Location& ddlAt = {});
    // The first worker error, if any, goes to OnWorkerFailure (which does not return).
    void checkWorkers();
    // What every barrier flush writes in its transaction besides the points (the online schema changes'
    // rows that changed since the last one).
    using BarrierRows = std::function<std::vector<checkpoint::OnlineDdlWrite>()>;
    void alsoAtEachBarrier(BarrierRows rows) { barrierRows_ = std::move(rows); }

private:
    void raiseExitSafeMark(const binlog::BinlogPosition& position);
    void completePending();
    void persist(checkpoint::FlushPlan plan, FlushReason reason, uint64_t groupSeq);

    struct PendingFlush {
        checkpoint::FlushPlan plan;
        uint64_t lastSequence = 0;  // dispatch sequence of the last change before the plan's points
        uint64_t groupSeq = 0;
    };

    FlushCoordinatorSettings settings_;
    checkpoint::CheckpointTracker& tracker_;
    CheckpointWriter& writer_;
    CommitFrontier& workers_;
    OnWorkerFailure onFailure_;
    OnPersisted onPersisted_;

    binlog::Location safeModeUntil_;
    binlog::Location exitSafeAtStart_;
    bool uncleanStart_ = false;
    binlog::Location exitSafeMark_;
    binlog::Location lastDispatched_;
    std::chrono::steady_clock::time_point lastFlush_ = std::chrono::steady_clock::now();
    std::optional<PendingFlush> pending_;
    BarrierRows barrierRows_;
    FlushStats stats_;
};

}  // namespace syncscope::task
