#include "engine/task/worker_feed.h"

#include "engine/apply/worker_pool.h"
#include "engine/task/replay_window.h"
#include "engine/task/row_change_builder.h"
#include "engine/task/task_setup.h"

namespace syncscope::task {

namespace {

const char* const kTaskSafeModeReason = "the task sets safe-mode: true";
const char* const kWindowSafeModeReason = "replaying events that may have been applied before an unclean stop";

}  // namespace

SafeModeView taskSafeMode(const TaskSetup& setup) {
    if (setup.syncer.safeMode) {
        return {true, kTaskSafeModeReason, {}};
    }
    return {};
}

SafeModeView WorkerFeed::safeMode() const {
    if (taskSafeMode_) {
        return {true, kTaskSafeModeReason, {}};
    }
    if (inSafeMode_) {
        const binlog::Location& until = flushes_.safeModeUntil();
        return {true, kWindowSafeModeReason, PointView{until.position().file(), until.position().offset(), {}, {}}};
    }
    return {};
}

WorkerFeed::WorkerFeed(const TaskSetup& setup, RowChangeBuilder& builder, FlushCoordinator& flushes,
                       ReplayWindow& replay, apply::WorkerPool& workers, apply::AppliedMarks marks,
                       const binlog::Location& persistedGlobal)
    : taskSafeMode_(setup.syncer.safeMode),
      builder_(builder),
      flushes_(flushes),
      replay_(replay),
      workers_(workers),
      appliedMarks_(setup.taskName) {
    appliedMarks_.reset(std::move(marks), persistedGlobal);
}

DispatchAdmission WorkerFeed::admit(const binlog::Location& at) {
    DispatchAdmission admission = flushes_.admit(at);
    inSafeMode_ = admission.inSafeModeWindow;
    return admission;
}

void WorkerFeed::rows(const binlog::RowsEvent& rows, apply::SourcePoint source, uint64_t groupSeq,
                      const checkpoint::TableName& table, const binlog::Location& at) {
    DispatchAdmission admission = admit(at);
    changes_.clear();
    builder_.build(rows, std::move(source), groupSeq, taskSafeMode_ || admission.inSafeModeWindow, changes_);
    if (admission.inReplayWindow) {
        replay_.fitRows(changes_, at);
    }
    appliedMarks_.filter(changes_, at.position(), admission.inSafeModeWindow);
    send(changes_);
    tablePoints_[table] = at;
}

void WorkerFeed::branch(PreparedBranch& branch, uint64_t groupSeq, const binlog::Location& at) {
    DispatchAdmission admission = admit(at);
    appliedMarks_.filterBranch(branch.changes, {at.position().file(), at.position().offset(), ""},
                               admission.inSafeModeWindow);
    for (apply::RowChange& change : branch.changes) {
        change.transactionSeq = groupSeq;
        change.safeMode = taskSafeMode_ || admission.inSafeModeWindow;
    }
    send(branch.changes);
    for (const auto& table : branch.tables) {
        tablePoints_[table] = at;
    }
}

void WorkerFeed::send(std::vector<apply::RowChange>& changes) {
    for (apply::RowChange& change : changes) {
        if (!workers_.dispatch(std::move(change))) {
            flushes_.checkWorkers();
        }
    }
    changes.clear();
}

}  // namespace syncscope::task
