// The dispatch to workers, the reader's side of it: a transaction's rows (a rows event, or a committed
// XA branch's rows) pass the one admission question (FlushCoordinator::admit, which raises the exit-safe
// mark first), are built in or out of safe mode as its answer says, fitted to the downstream's tables
// inside a replay window, filtered by the applied marks of tables without a key, and handed to the
// worker pool in order (whose apply::Dispatcher picks the worker by causality). The table points the
// rows reach are kept for the transaction's end, when the pipeline hands them to the checkpoint.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/apply/applied_marks.h"
#include "engine/apply/row_change.h"
#include "engine/binlog/event.h"
#include "engine/binlog/location.h"
#include "engine/checkpoint/checkpoint_tracker.h"
#include "engine/task/applied_marks_filter.h"
#include "engine/task/flush_coordinator.h"
#include "engine/task/pipeline_live_view.h"
#include "engine/task/prepared_xa_store.h"

namespace syncscope::apply {
class WorkerPool;
}

namespace syncscope::task {

class ReplayWindow;
class RowChangeBuilder;
struct TaskSetup;

// The safe mode a task's rows go in when no event was admitted yet (the task's own setting).
SafeModeView taskSafeMode(const TaskSetup& setup);

class WorkerFeed {
public:
    // `marks` and `persistedGlobal`: the applied marks read at the session's start (applied_marks_filter.h).
    WorkerFeed(const TaskSetup& setup, RowChangeBuilder& builder, FlushCoordinator& flushes, ReplayWindow& replay,
               apply::WorkerPool& workers, apply::AppliedMarks marks, const binlog::Location& persistedGlobal);

    // The one question per dispatched event, also for a DDL; remembers the safe-mode answer.
    DispatchAdmission admit(const binlog::Location& at);
    // The rows of one rows event ending at `at`, of the group `groupSeq`, to the workers.
    void rows(const binlog::RowsEvent& rows, apply::SourcePoint source, uint64_t groupSeq,
              const checkpoint::TableName& table, const binlog::Location& at);
    // A committed XA branch's rows, as changes of the group `groupSeq` that commits it at `at`.
    void branch(PreparedBranch& branch, uint64_t groupSeq, const binlog::Location& at);

    // The table points the open transaction's rows reached; cleared when a transaction opens.
    TablePoints takeTablePoints() { return std::exchange(tablePoints_, {}); }
    void transactionOpened() { tablePoints_.clear(); }
    // Whether the rows now go in safe mode, and why (for the status view): the task's setting, or the last
    // event admitted lay inside safe mode's window.
    SafeModeView safeMode() const;

private:
    // A full queue that hides a worker error fails the session (FlushCoordinator::checkWorkers).
    void send(std::vector<apply::RowChange>& changes);

    bool taskSafeMode_;
    RowChangeBuilder& builder_;
    FlushCoordinator& flushes_;
    ReplayWindow& replay_;
    apply::WorkerPool& workers_;
    AppliedMarksFilter appliedMarks_;  // rows of tables without a key: exactly once
    std::vector<apply::RowChange> changes_;
    TablePoints tablePoints_;
    bool inSafeMode_ = false;
};

}  // namespace syncscope::task
