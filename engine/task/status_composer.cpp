#include "engine/task/status_composer.h"

#include "engine/task/optimistic_shard_ddl.h"
#include "engine/task/shard_ddl_locks.h"

#include <algorithm>
#include <utility>

#include "engine/task/upstream_catch_up.h"

namespace syncscope::task {

void SessionTotals::add(const SessionLiveView& ended) {
    eventsRead += ended.eventsRead;
    rowsApplied += ended.rowsApplied;
    for (const auto& [table, rows] : ended.rowsPerTable) {
        rowsByTable[table] += rows;
    }
    for (const auto& [table, rows] : ended.rowsUnmatchedPerTable) {
        rowsUnmatchedByTable[table] += rows;
    }
}

namespace {

PointView pointOf(const binlog::Location& location, const UpstreamState& upstream) {
    PointView point;
    if (!location.position().isEmpty()) {
        point.file = location.position().file();
        point.pos = location.position().offset();
        point.axis = upstream.axis.bytesOf(location.position());
    }
    point.gtid = location.gtidText();
    return point;
}

// The furthest point read from the upstream: the live session's, else the one the last session left.
binlog::BinlogPosition furthestRead(const PointView& liveRead, const std::optional<EndedSessionView>& ended) {
    binlog::BinlogPosition furthest;
    for (const PointView* point : {&liveRead, ended ? &ended->read : nullptr}) {
        if (point && point->known() && binlog::BinlogPosition::isBinlogFileName(point->file)) {
            furthest = std::max(furthest, binlog::BinlogPosition(point->file, point->pos));
        }
    }
    return furthest;
}

}  // namespace

std::shared_ptr<const StatusSnapshot> StatusComposer::compose(TaskStateView state,
                                                              const checkpoint::TrackerView& points,
                                                              const SessionLiveView& live, UpstreamState upstream,
                                                              std::optional<load::LoadProgressView> load) {
    auto snapshot = std::make_shared<StatusSnapshot>();
    snapshot->stage = state.stage;
    snapshot->stageReason = std::move(state.stageReason);
    snapshot->stopPoint = std::move(state.stopPoint);
    snapshot->failedEvent = std::move(state.failedEvent);
    snapshot->lastError = std::move(state.lastError);
    snapshot->sequence = ++sequence_;
    snapshot->takenAt = Clock::now();
    snapshot->taskName = setup_.taskName;
    snapshot->sourceId = setup_.sourceId;

    // Points first, then the read point, then the upstream brought up to it: every point is then at or
    // before the upstream's position in this one view.
    upstream = catchUpWithRead(std::move(upstream), furthestRead(live.read, state.ended));
    if (upstream.position) {
        snapshot->upstream = pointOf(binlog::Location(*upstream.position), upstream);
        snapshot->upstream.gtid = upstream.gtid;
    }
    for (const auto& file : upstream.files) {
        snapshot->upstreamFiles.push_back({file.file, file.size});
    }
    if (!upstream.error.empty() && snapshot->lastError.empty()) {
        snapshot->lastError = "upstream: " + upstream.error;
    }

    snapshot->globalInMemory = pointOf(points.globalInMemory, upstream);
    snapshot->globalPersisted = pointOf(points.globalPersisted, upstream);
    snapshot->exitSafe = pointOf(points.exitSafePersisted, upstream);

    // One lookup per table: with thousands of tables a scan per table would cost millions per tick.
    std::map<checkpoint::TableName, uint64_t>& rowsByTable = state.totals.rowsByTable;
    for (const auto& [table, rows] : live.rowsPerTable) {
        rowsByTable[table] += rows;
    }
    std::map<checkpoint::TableName, uint64_t>& unmatchedByTable = state.totals.rowsUnmatchedByTable;
    for (const auto& [table, rows] : live.rowsUnmatchedPerTable) {
        unmatchedByTable[table] += rows;
    }
    for (const auto& table : points.tables) {
        TablePointView view;
        view.sourceId = setup_.sourceId;
        view.schema = table.table.schema;
        view.table = table.table.table;
        if (table.inMemory) {
            view.inMemory = pointOf(*table.inMemory, upstream);
        }
        if (table.persisted) {
            view.persisted = pointOf(*table.persisted, upstream);
            view.aheadOfGlobal = table.persisted->compare(points.globalPersisted) == binlog::PositionOrder::After;
            auto distance = upstream.axis.distance(points.globalPersisted.position(), table.persisted->position());
            view.bytesFromGlobal = distance.value_or(0);
        }
        if (auto rows = rowsByTable.find(table.table); rows != rowsByTable.end()) {
            view.rowsApplied = rows->second;
        }
        if (auto rows = unmatchedByTable.find(table.table); rows != unmatchedByTable.end()) {
            view.rowsUnmatched = rows->second;
        }
        view.lastChange = activity_.lastChange(table.table, view.rowsApplied, snapshot->takenAt);
        snapshot->tables.push_back(std::move(view));
    }
    snapshot->read = live.read;
    snapshot->applied = live.applied;
    for (PointView* point : {&snapshot->read, &snapshot->applied}) {
        if (point->known()) {
            point->axis = upstream.axis.bytesOf(binlog::BinlogPosition(point->file, point->pos));
        }
    }
    snapshot->eventsRead = state.totals.eventsRead + live.eventsRead;
    snapshot->rowsApplied = state.totals.rowsApplied + live.rowsApplied;
    ActivityMeter::Rates rates = activity_.rates(snapshot->rowsApplied, state.sessionRunning, snapshot->takenAt);
    snapshot->recentRowsPerSecond = rates.recent;
    snapshot->totalRowsPerSecond = rates.total;
    // A session that has not read yet (connecting) knows less than the one before it.
    EndedSessionView lagFrom = state.sessionRunning && live.read.known()
                                   ? EndedSessionView{live.read, live.oldestUnappliedTimestamp}
                                   : state.ended.value_or(EndedSessionView{});
    snapshot->lagSeconds = lagClock_.lagSeconds(lagFrom.oldestUnappliedTimestamp, lagFrom.read, upstream.position,
                                                LagClock::WallClock::now());
    snapshot->catchUp = catchUp_.update(snapshot->applied.axis, snapshot->upstream.axis, snapshot->takenAt);
    if (snapshot->lagSeconds == 0 && state.sessionRunning) {
        snapshot->catchUp.etaSeconds = 0.0;  // caught up: what remains is heartbeats and binlog bookkeeping
    }
    snapshot->readQueueDepth = live.readQueueDepth;
    snapshot->workerQueueDepths = live.workerQueueDepths;
    snapshot->applyConcurrency = live.applyConcurrency;
    snapshot->workerQueueBytes = live.workerQueueBytes;
    snapshot->safeMode = live.safeMode || setup_.syncer.safeMode;
    snapshot->safeModeReason = setup_.syncer.safeMode ? "the task sets safe-mode: true" : live.safeModeReason;
    snapshot->safeModeUntil = live.safeModeUntil;
    snapshot->onlineChanges = live.onlineChanges;
    if (setup_.shardLocks) {
        snapshot->shardLocks = shardLockStatus(setup_.shardLocks->view());
    }
    if (setup_.optimisticShards) {
        snapshot->shardColumns = shardColumnStatus(setup_.optimisticShards->pendingColumns());
    }
    if (!state.previousGlobalPoint.isEmpty()) {
        snapshot->globalBeforeResumeFrom = PointView{state.previousGlobalPoint.position().file(),
                                                     state.previousGlobalPoint.position().offset(),
                                                     state.previousGlobalPoint.gtidText(),
                                                     {}};
    }
    snapshot->stream = live.stream;
    snapshot->lastFlush = live.lastFlush;
    snapshot->lastFlushMilliseconds = live.lastFlushMilliseconds;
    snapshot->load = std::move(load);
    return snapshot;
}

}  // namespace syncscope::task
