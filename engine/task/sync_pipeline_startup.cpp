// The pipeline's start: the control port, the persisted checkpoint and the start point, the workers, the
// flush coordinator with safe mode's window, and the schema tracker (sync_pipeline.h).
#include "engine/task/sync_pipeline.h"

#include <spdlog/spdlog.h>

#include "engine/apply/worker_pool.h"
#include "engine/common/error.h"
#include "engine/schema/schema_tracker.h"
#include "engine/task/apply_pool_settings.h"
#include "engine/task/row_change_builder.h"

namespace syncscope::task {

namespace {

using binlog::Location;
using binlog::PositionOrder;

}  // namespace

// After an unclean stop the safe-mode window ends at the persisted exit-safe point, narrowed to the
// upstream's end now (flush_coordinator.h); with safe-mode-duration 0s such a start is refused as in DM.
void SyncPipeline::openSafeModeWindow(const Location& global, const Location& exitSafe) {
    std::optional<Location> upstreamEnd;
    bool unclean = exitSafe.compare(global) == PositionOrder::After;
    if (unclean && setup_.syncer.safeModeDuration.count() == 0) {
        throw Error(
            "your `safe-mode-duration` in task.yaml is set to 0s, the task can't be re-processed without "
            "safe mode currently: events up to the exit-safe point " +
            exitSafe.toString() + " may have been applied before an unclean stop (global point " + global.toString() +
            "); remove the setting for this restart");
    }
    if (unclean) {
        upstreamEnd = control_->upstreamEnd();
    }
    flushCoordinator_->openSafeModeWindow(global, exitSafe, upstreamEnd);
    if (unclean) {
        spdlog::warn("task {}: the last stop was unclean: safe mode is on from the global point {} until {}",
                     setup_.taskName, global.toString(), flushCoordinator_->safeModeUntil().toString());
    }
}

Location SyncPipeline::prepare() {
    control_ = ports_.openControl ? ports_.openControl(setup_) : openDownstreamControl(setup_);
    checkpoint::PersistedCheckpoint persisted;
    Location start = control_->start(persisted);
    tracker_.reset(persisted.globalPoint, persisted.tablePoints, persisted.exitSafePoint);
    transactionTracker_ = TransactionTracker(start.gtids());
    currentFile_ = start.position().file();

    apply::WorkerPoolSettings pool = applyPoolSettings(setup_);
    if (setup_.syncer.multipleRows && !pool.worker.multipleRows) {
        spdlog::info("task {}: one statement per row: the target session sets foreign_key_checks on", setup_.taskName);
    }
    pool.connect = ports_.connectWorker;
    workers_ = std::make_unique<apply::WorkerPool>(pool);
    live_.attach(workers_.get());

    FlushCoordinatorSettings flushing;
    flushing.interval = std::chrono::seconds(setup_.syncer.checkpointFlushIntervalSeconds);
    flushing.exitSafeStepBytes = setup_.exitSafeStepBytes;
    commitFrontier_ = std::make_unique<PoolCommitFrontier>(*workers_);
    flushCoordinator_ = std::make_unique<FlushCoordinator>(
        flushing, tracker_, control_->checkpoints(), *commitFrontier_,
        [this](const apply::ApplyFailure& failure) { failWith(failure); },
        [this](const checkpoint::FlushPlan&, double milliseconds, uint64_t groupSeq) {
            // Changes dispatched before the flushed point are committed: their group starts are no longer needed.
            transactionStarts_.forgetBefore(groupSeq);
            live_.flushed(milliseconds);
        });
    openSafeModeWindow(persisted.globalPoint, persisted.exitSafePoint);
    appliedMarks_.reset(control_->appliedMarks(), persisted.globalPoint);

    // The schema tracker runs on this (the reader's) thread, as does the control connection.
    schemas_ = std::make_unique<schema::SchemaTracker>(
        [this](const schema::TableName& target) { return control_->loadSchema(target); });
    rowChanges_ = std::make_unique<RowChangeBuilder>(setup_, *schemas_);
    replay_ = std::make_unique<ReplayWindow>(setup_, *control_);
    ddl_ = std::make_unique<DdlRunner>(setup_.taskName, *control_, *schemas_, *replay_);
    return start;
}

}  // namespace syncscope::task
