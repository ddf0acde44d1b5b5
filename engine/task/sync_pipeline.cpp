#include "engine/task/sync_pipeline.h"

#include <algorithm>

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/statement.h>
#include <spdlog/spdlog.h>

#include "engine/apply/apply_failure.h"
#include "engine/apply/downstream_connection.h"
#include "engine/apply/error_class.h"
#include "engine/apply/worker_pool.h"
#include "engine/checkpoint/checkpoint_table.h"
#include "engine/schema/downstream_schema_loader.h"
#include "engine/schema/schema_tracker.h"
#include "engine/source/binlog_server_source.h"
#include "engine/source/upstream_connection.h"
#include "engine/task/ddl_applier.h"
#include "engine/task/ddl_statement.h"
#include "engine/task/failed_event_view.h"
#include "engine/task/row_change_builder.h"

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

constexpr const char* kFlushAtStop = "stop";
constexpr uint64_t kFirstEventOffset = 4;  // after the binlog file's magic bytes
constexpr std::chrono::milliseconds kLiveCountersInterval{50};

// The later of two locations; `a` when they cannot be ordered or `b` is empty.
Location latest(const Location& a, const Location& b) {
    if (a.isEmpty()) {
        return b;
    }
    return !b.isEmpty() && b.compare(a) == PositionOrder::After ? b : a;
}

}  // namespace

SyncPipeline::SyncPipeline(const TaskSetup& setup, checkpoint::CheckpointTracker& tracker)
    : setup_(setup), tracker_(tracker) {}

SyncPipeline::~SyncPipeline() {
    if (workers_) {
        workers_->stop();
    }
}

void SyncPipeline::cancel() {
    cancelled_ = true;
    std::lock_guard lock(streamMutex_);
    if (stream_) {
        stream_->cancel();
    }
}

SessionLiveView SyncPipeline::live() const {
    std::lock_guard lock(liveMutex_);
    refreshAppliedLocked();
    return live_;
}

SessionOutcome SyncPipeline::failureOutcome(const std::string& message, bool retryable) const {
    SessionOutcome outcome;
    outcome.kind = SessionOutcome::Kind::Failed;
    outcome.retryable = retryable;
    outcome.message = message;
    return outcome;
}

// The window of events that may have been applied before this session: from the persisted global
// point to the persisted exit-safe point, but never past the upstream's end now (an unclean session
// cannot have applied what was not written yet; the mark runs ahead of it in large steps).
void SyncPipeline::openSafeModeWindow(const Location& global, const Location& exitSafe) {
    safeModeUntil_ = exitSafe;
    uncleanStart_ = exitSafe.compare(global) == PositionOrder::After;
    if (!uncleanStart_) {
        return;
    }
    if (setup_.syncer.safeModeDuration.count() == 0) {
        throw Error(
            "your `safe-mode-duration` in task.yaml is set to 0s, the task can't be re-processed without "
            "safe mode currently: events up to the exit-safe point " +
            exitSafe.toString() + " may have been applied before an unclean stop (global point " + global.toString() +
            "); remove the setting for this restart");
    }
    try {
        source::UpstreamConnection upstream(setup_.upstream);
        auto master = upstream.query("SHOW MASTER STATUS");
        if (!master.empty() && master.front().size() >= 2 && master.front()[0] && master.front()[1]) {
            Location upstreamEnd(binlog::BinlogPosition(*master.front()[0], std::stoull(*master.front()[1])));
            if (upstreamEnd.compare(exitSafe) == PositionOrder::Before) {
                safeModeUntil_ = upstreamEnd;
            }
        }
    } catch (const source::UpstreamError& e) {
        spdlog::warn(
            "task {}: cannot read the upstream's end to narrow the safe-mode window ({}); safe mode stays "
            "on up to the exit-safe point {}",
            setup_.taskName, e.what(), exitSafe.toString());
    }
    spdlog::warn("task {}: the last stop was unclean: safe mode is on from the global point {} until {}",
                 setup_.taskName, global.toString(), safeModeUntil_.toString());
}

Location SyncPipeline::prepare() {
    control_ = apply::connectDownstream(setup_.downstream);
    checkpointTable_ = std::make_unique<checkpoint::CheckpointTable>(*control_, setup_.metaSchema, setup_.taskName);
    checkpointTable_->ensureTable();
    checkpoint::PersistedCheckpoint persisted = checkpointTable_->load(setup_.sourceId);

    Location start;
    if (persisted.hasGlobalRow) {
        start = persisted.globalPoint;
        spdlog::info("task {}: resuming from the persisted global point {}", setup_.taskName, start.toString());
    } else {
        if (!setup_.metaBinlogName.empty() || !setup_.metaBinlogGtid.empty()) {
            start = Location::fromParts(setup_.metaBinlogName, setup_.metaBinlogPos,
                                        setup_.enableGtid ? setup_.metaBinlogGtid : "");
            spdlog::info("task {}: no checkpoint yet; starting from the task's meta {}", setup_.taskName,
                         start.toString());
        } else {
            source::UpstreamConnection upstream(setup_.upstream);
            auto master = upstream.query("SHOW MASTER STATUS");
            if (master.empty() || master.front().size() < 2 || !master.front()[0] || !master.front()[1]) {
                throw Error("upstream " + setup_.upstream.describe() +
                            ": SHOW MASTER STATUS returned nothing; is the binary log on?");
            }
            std::string gtid =
                setup_.enableGtid ? upstream.queryValue("SELECT @@GLOBAL.gtid_binlog_pos").value_or("") : "";
            start = Location::fromParts(*master.front()[0], std::stoull(*master.front()[1]), gtid);
            spdlog::warn(
                "task {}: NO CHECKPOINT AND NO META: starting from the upstream's CURRENT position {}; "
                "everything written upstream before it is not replicated",
                setup_.taskName, start.toString());
        }
        // Nothing is applied yet, so persisting the start covers no event.
        checkpointTable_->flush(setup_.sourceId, {}, start, start);
        persisted.globalPoint = start;
        persisted.exitSafePoint = start;
    }
    tracker_.reset(persisted.globalPoint, persisted.tablePoints, persisted.exitSafePoint);
    exitSafeMark_ = persisted.exitSafePoint;
    persistedExitSafeAtStart_ = persisted.exitSafePoint;
    openSafeModeWindow(persisted.globalPoint, persisted.exitSafePoint);
    groups_ = TransactionTracker(start.gtids());
    currentFile_ = start.position().file();

    apply::WorkerPoolSettings pool;
    pool.downstream = setup_.downstream;
    pool.workerCount = static_cast<size_t>(setup_.syncer.workerCount);
    pool.worker.batch = static_cast<size_t>(setup_.syncer.batch);
    pool.worker.multipleRows = setup_.syncer.multipleRows;
    for (const auto& [name, value] : setup_.downstreamSession) {
        pool.sessionVariables.emplace_back(name, value);
    }
    workers_ = std::make_unique<apply::WorkerPool>(pool);
    livePool_ = workers_.get();

    // The schema tracker runs on this (the reader's) thread, as does the control connection.
    auto loader = std::make_shared<schema::DownstreamSchemaLoader>(*control_);
    schemas_ = std::make_unique<schema::SchemaTracker>(
        [loader](const schema::TableName& target) { return loader->load(target); });
    rowChanges_ = std::make_unique<RowChangeBuilder>(setup_, *schemas_);
    return start;
}

SessionOutcome SyncPipeline::run(const std::optional<SkipRequest>& skip, const std::atomic<bool>& interrupt) {
    skip_ = skip;
    SessionOutcome outcome = stream(interrupt);
    settleLiveAtEnd();
    return outcome;
}

SessionOutcome SyncPipeline::stream(const std::atomic<bool>& interrupt) {
    try {
        Location start = prepare();
        {
            std::lock_guard lock(liveMutex_);
            live_.applied = PointView{start.position().file(), start.position().offset(), {}, {}};
        }
        {
            std::lock_guard lock(streamMutex_);
            StreamStart from{start, setup_.enableGtid, setup_.heartbeatSeconds};
            stream_ = openServerStream(setup_.upstream, from);
            if (cancelled_) {
                stream_->cancel();
            }
        }
        lastFlush_ = Steady::now();
        while (!interrupt && !cancelled_) {
            std::optional<binlog::RawEvent> raw = stream_->next();
            checkWorkers();
            if (!raw) {
                if (!groups_.inGroup()) {
                    maybeFlush();  // an idle stream still persists what has committed
                }
                updateLive({});
                continue;
            }
            events_.clear();
            decoder_.decodeInto(*raw, events_);
            for (const binlog::Event& event : events_) {
                handle(event);
            }
        }
        // A graceful end: persist what has committed (the current transaction, if cut short, is
        // read again from the global point next time).
        flush(kFlushAtStop);
        return {};
    } catch (const SessionFailure& failure) {
        return failure.outcome;
    } catch (const apply::DownstreamError& e) {
        return failureOutcome(e.what(), apply::classifyDownstreamError(e.code()) == apply::ErrorClass::Retryable);
    } catch (const source::UpstreamError& e) {
        // Only a lost or refused connection can heal by itself; a purged position, a wrong password, a
        // missing grant or wrong server settings wait for the DBA.
        return failureOutcome(e.what(), source::BinlogServerSource::isRetryable(e.code()));
    } catch (const std::exception& e) {
        return failureOutcome(e.what(), false);
    }
}

Location SyncPipeline::locationAt(const binlog::Event& event) const {
    std::string file = event.file.empty() ? currentFile_ : std::string(event.file);
    Location location(binlog::BinlogPosition(file, event.endPos));
    location.setGtids(groups_.gtids());
    return location;
}

void SyncPipeline::handle(const binlog::Event& event) {
    if (event.header.timestamp != 0) {
        lastEventTimestamp_ = event.header.timestamp;
    }
    if (event.as<binlog::HeartbeatEvent>() != nullptr) {
        if (!groups_.inGroup()) {
            maybeFlush();  // idle upstream: persist what has committed
        }
        updateLive({});
        return;
    }
    if (const auto* rotate = event.as<binlog::RotateEvent>()) {
        currentFile_ = rotate->nextFile;
        return;
    }
    if (!event.file.empty()) {
        currentFile_ = std::string(event.file);
    }
    if (event.as<binlog::FormatDescriptionEvent>() != nullptr) {
        followRotation(event);  // a new file begins (the source names it; a rotate's own name may carry a checksum)
        return;
    }
    if (const auto* gtid = event.as<binlog::MariaDbGtidEvent>()) {
        closeDanglingGroup(event);
        groups_.onMariaDbGtid(*gtid, startOf(event), timestampOf(event));
        onGroupOpened();
    } else if (const auto* mysqlGtid = event.as<binlog::MySqlGtidEvent>()) {
        closeDanglingGroup(event);
        groups_.onMySqlGtid(*mysqlGtid, startOf(event), timestampOf(event));
        onGroupOpened();
    } else if (const auto* query = event.as<binlog::QueryEvent>()) {
        onQuery(event, *query);
    } else if (const auto* rows = event.as<binlog::RowsEvent>()) {
        onRows(event, *rows);
    } else if (event.as<binlog::XidEvent>() != nullptr) {
        endTransaction(event);
    } else if (event.type() == binlog::EventType::XaPrepare && groups_.inGroup()) {
        endTransaction(event);  // an XA branch's group ends at XA PREPARE
    }
    updateLive(event);
}

// Between groups a rotation moves the global point into the new file, so that an idle upstream that
// rotated (FLUSH BINARY LOGS, a restart) does not leave the checkpoint in a file that may be purged
// next. Positions only move forward: the fake rotation a dump starts with never moves them back.
void SyncPipeline::followRotation(const binlog::Event& formatDescription) {
    std::string file = formatDescription.file.empty() ? currentFile_ : std::string(formatDescription.file);
    if (groups_.inGroup() || file.empty()) {
        return;
    }
    Location next(binlog::BinlogPosition(file, kFirstEventOffset));
    next.setGtids(groups_.gtids());
    Location global = preparedXa_.globalBefore(tracker_.globalInMemory());
    try {
        if (next.compare(global) == PositionOrder::After) {
            takePoints(preparedXa_.groupEnded(next, {}));
        }
    } catch (const binlog::PositionError& e) {
        spdlog::debug("task {}: the checkpoint stays in its file at the start of {}: {}", setup_.taskName, file,
                      e.what());
    }
}

binlog::BinlogPosition SyncPipeline::startOf(const binlog::Event& event) const {
    return binlog::BinlogPosition(event.file.empty() ? currentFile_ : std::string(event.file), event.pos);
}

uint32_t SyncPipeline::timestampOf(const binlog::Event& event) const {
    return event.header.timestamp != 0 ? event.header.timestamp : lastEventTimestamp_;
}

// A group still open when the next GTID comes was cut short upstream (a server crash) or opened by a
// DDL that had no terminator: it ends here, so its GTID is never lost.
void SyncPipeline::closeDanglingGroup(const binlog::Event& nextGtid) {
    if (!groups_.inGroup()) {
        return;
    }
    spdlog::warn("task {}: the event group at {} has no terminator before the GTID at {}; it ends there",
                 setup_.taskName, groups_.group()->start.toString(), startOf(nextGtid).toString());
    endTransaction(nextGtid);
}

void SyncPipeline::onGroupOpened() {
    const OpenGroup& group = *groups_.group();
    transactionStart_ = group.start;
    {
        std::lock_guard lock(liveMutex_);
        openTransactionTimestamp_ = group.timestamp;
    }
    transactionStarts_[group.seq] = group.start;
    transactionTablePoints_.clear();
    branchChanges_.clear();
    branchTables_.clear();
    skippingTransaction_ = skip_ && skip_->transactionStart == transactionStart_;
    if (skippingTransaction_) {
        spdlog::warn("task {}: skipping the transaction at {} as the DBA asked", setup_.taskName,
                     transactionStart_.toString());
    }
}

void SyncPipeline::endTransaction(const binlog::Event& event) {
    if (!groups_.inGroup()) {
        return;  // a terminator without a group (the stream began inside one): nothing to end
    }
    OpenGroup ended = groups_.end();
    Location end = locationAt(event);
    if (ended.kind == GroupKind::XaPrepare && !skippingTransaction_ && !branchChanges_.empty()) {
        // The branch's rows wait for its outcome; the checkpoint holds before its group from now on.
        PreparedBranch branch;
        branch.groupSeq = ended.seq;
        branch.prepareStart = ended.start;
        branch.changes = std::move(branchChanges_);
        branch.tables = std::move(branchTables_);
        branch.globalBefore = preparedXa_.globalBefore(tracker_.globalInMemory());
        preparedXa_.prepare(ended.branch, std::move(branch));
        spdlog::info("task {}: XA branch {} prepared at {}: its rows wait for XA COMMIT", setup_.taskName, ended.branch,
                     ended.start.toString());
    }
    branchChanges_.clear();
    branchTables_.clear();
    takePoints(preparedXa_.groupEnded(end, transactionTablePoints_));
    transactionTablePoints_.clear();
    {
        std::lock_guard lock(liveMutex_);
        frontier_.ended(workers_ ? workers_->lastDispatchedSequence() : 0,
                        PointView{end.position().file(), end.position().offset(), {}, {}},
                        ended.timestamp != 0 ? ended.timestamp : lastEventTimestamp_);
        openTransactionTimestamp_ = 0;
    }
    if (skippingTransaction_) {
        skip_.reset();
        skippingTransaction_ = false;
    }
    maybeFlush();
}

void SyncPipeline::takePoints(const HeldPointsRelease& release) {
    for (const auto& [table, location] : release.tables) {
        tracker_.advanceTable(table, location);
    }
    if (release.global) {
        tracker_.advanceGlobal(*release.global);
    }
}

void SyncPipeline::onQuery(const binlog::Event& event, const binlog::QueryEvent& query) {
    using Kind = binlog::QueryEvent::Kind;
    switch (query.kind) {
        case Kind::Begin:
            if (!groups_.inGroup()) {
                groups_.onBegin(startOf(event), timestampOf(event));
                onGroupOpened();
            }
            return;
        case Kind::Commit:
        case Kind::Rollback:
            endTransaction(event);
            return;
        case Kind::Xa:
            onXaStatement(event, query);
            return;
        case Kind::Savepoint:
            return;
        case Kind::Ddl:
        case Kind::Other:
            onDdl(event, query);
            return;
    }
}

void SyncPipeline::onXaStatement(const binlog::Event& event, const binlog::QueryEvent& query) {
    if (std::string branch = xaStartBranch(query.query); !branch.empty()) {
        // MySQL logs XA START as a statement inside the branch's group.
        if (!groups_.inGroup()) {
            groups_.onBegin(startOf(event), timestampOf(event));
            onGroupOpened();
        }
        groups_.markXaBranch(std::move(branch));
        return;
    }
    std::optional<XaOutcome> outcome = xaOutcomeOf(query.query);
    if (!outcome) {
        return;  // XA END: the branch goes on to its XA PREPARE
    }
    if (!groups_.inGroup()) {
        groups_.openForDdl(startOf(event), timestampOf(event));
        onGroupOpened();
    }
    HeldPointsRelease release;
    std::optional<PreparedBranch> branch = preparedXa_.resolve(outcome->branch, release);
    takePoints(release);
    if (!branch) {
        // Prepared before this session's start point (or all its rows were filtered out): nothing of it
        // waits here. Our own checkpoints never start between a PREPARE and its outcome (they are held).
        spdlog::warn(
            "task {}: XA {} of branch {} at {}: its XA PREPARE was not read in this session (it lies "
            "before the start point, or none of its rows passed the filters)",
            setup_.taskName, outcome->commit ? "COMMIT" : "ROLLBACK", outcome->branch, startOf(event).toString());
    } else if (outcome->commit && !skippingTransaction_) {
        Location at = locationAt(event);
        raiseExitSafeMarkPast(at.position());
        bool safeMode = safeModeAt(at);
        for (apply::RowChange& change : branch->changes) {
            change.transactionSeq = groups_.group()->seq;
            change.safeMode = safeMode;
            if (!workers_->dispatch(std::move(change))) {
                checkWorkers();
            }
        }
        for (const auto& table : branch->tables) {
            transactionTablePoints_[table] = at;
        }
        lastDispatched_ = at;
        spdlog::info("task {}: XA COMMIT of branch {} at {}: {} rows applied", setup_.taskName, outcome->branch,
                     at.toString(), branch->changes.size());
    } else {
        spdlog::info("task {}: XA ROLLBACK of branch {} at {}: its {} rows are dropped", setup_.taskName,
                     outcome->branch, startOf(event).toString(), branch->changes.size());
    }
    endTransaction(event);
}

bool SyncPipeline::safeModeAt(const Location& at) {
    inSafeMode_ = atOrBefore(at, safeModeUntil_);
    return setup_.syncer.safeMode || inSafeMode_;
}

void SyncPipeline::onRows(const binlog::Event& event, const binlog::RowsEvent& rows) {
    if (skippingTransaction_) {
        return;
    }
    RowsDecision decision = rowChanges_->decide(rows);
    if (decision.kind == RowsDecision::Kind::Ignore) {
        return;
    }
    Location at = locationAt(event);
    checkpoint::TableName table{rows.table->schema, rows.table->table};
    if (decision.kind == RowsDecision::Kind::Error) {
        SessionFailure failure{failureOutcome(decision.reason + " at " + at.toString(), false)};
        failure.outcome.failedTransactionStart = transactionStart_;
        throw failure;
    }
    if (tracker_.coveredByTablePoint(table, at)) {
        return;  // applied before the last flush of this table's point (DESIGN.md invariant 4)
    }
    const OpenGroup* group = groups_.group();
    uint64_t groupSeq = group != nullptr ? group->seq : groups_.lastSeq();
    // The failed-event report names the row's own transaction, not the GTID state before it.
    apply::SourcePoint source{at.position().file(), at.position().offset(), group != nullptr ? group->gtidText : ""};
    if (group != nullptr && group->kind == GroupKind::XaPrepare) {
        // Kept until the branch's outcome is read (safe mode is decided then).
        rowChanges_->build(rows, source, groupSeq, false, branchChanges_);
        if (std::find(branchTables_.begin(), branchTables_.end(), table) == branchTables_.end()) {
            branchTables_.push_back(table);
        }
        return;
    }
    raiseExitSafeMarkPast(at.position());
    bool safeMode = safeModeAt(at);
    changes_.clear();
    rowChanges_->build(rows, source, groupSeq, safeMode, changes_);
    for (apply::RowChange& change : changes_) {
        if (!workers_->dispatch(std::move(change))) {
            checkWorkers();
        }
    }
    transactionTablePoints_[table] = at;
    lastDispatched_ = at;
}

void SyncPipeline::failOnDdl(const binlog::Event& event, const binlog::QueryEvent& query, const Location& at,
                             const std::string& sql, int code, const std::string& message, bool retryable) {
    SessionFailure failure{failureOutcome(message, retryable)};
    failure.outcome.failedTransactionStart = groups_.inGroup() ? transactionStart_ : startOf(event);
    failure.outcome.failedEvent = ddlFailedEvent(at, query, sql, code, message);
    throw failure;
}

void SyncPipeline::onDdl(const binlog::Event& event, const binlog::QueryEvent& query) {
    bool ownGroup = groups_.ddlIsOwnGroup();
    if (skippingTransaction_) {
        if (ownGroup) {
            endTransaction(event);
        }
        return;
    }
    DdlPlan plan = planDdl(setup_, query.schema, query.query);
    Location at = locationAt(event);
    if (plan.action == DdlPlan::Action::Error) {
        failOnDdl(event, query, at, query.query, 0, plan.reason + " at " + at.toString() + ": " + query.query, false);
    }
    if (plan.action == DdlPlan::Action::Apply) {
        // Every row before the DDL must be downstream before the table changes shape, and the points
        // before it persisted, with the exit-safe point at this DDL: after a kill during it, exactly this
        // DDL counts as possibly applied (ddl_applier.h).
        flush("before ddl", at);
        lastDispatched_ = at;
        // Only the first DDL after an unclean stop can have run unpersisted: each DDL persists the points
        // before it, so a later one would have moved the global point past the first.
        bool possiblyApplied = uncleanStart_ && !appliedDdlThisSession_ && atOrBefore(at, persistedExitSafeAtStart_);
        appliedDdlThisSession_ = true;
        DdlOutcome outcome = DdlApplier(*control_).apply(plan, possiblyApplied);
        if (outcome.appliedBefore) {
            spdlog::warn(
                "task {}: DDL at {} had run before the last unclean stop (the persisted exit-safe point "
                "names it); going on: {}",
                setup_.taskName, at.toString(), plan.sql);
        } else if (!outcome.applied) {
            failOnDdl(event, query, at, plan.sql, outcome.errorCode,
                      "DDL failed downstream at " + at.toString() + ": " + outcome.error + " [" +
                          std::to_string(outcome.errorCode) + "]: " + plan.sql,
                      apply::classifyDownstreamError(outcome.errorCode) == apply::ErrorClass::Retryable);
        } else {
            spdlog::info("task {}: applied DDL at {}: {}", setup_.taskName, at.toString(), plan.sql);
        }
        for (const auto& table : plan.tables) {
            schemas_->forgetTable({table.schema, table.table});
        }
        if (plan.tables.empty()) {
            schemas_->forgetAll();
        }
    } else {
        spdlog::info("task {}: ignored DDL at {} ({}): {}", setup_.taskName, at.toString(), plan.reason, query.query);
    }
    if (!ownGroup) {
        // CREATE TABLE ... SELECT: the group's rows follow; the group ends at its terminator.
        groups_.markDdlInGroup();
        return;
    }
    if (!groups_.inGroup()) {
        groups_.openForDdl(startOf(event), timestampOf(event));
        onGroupOpened();
    }
    endTransaction(event);
    flush("ddl");
}

// The interval flush does not stop the workers: at a transaction boundary it plans the flush (the
// points in memory, and the dispatch sequence of the last change before them), dispatching goes on,
// and the plan is written once the workers have committed every change up to that sequence and no
// worker error happened (DESIGN.md invariant 1, without a barrier's stall). DDL and stop flushes stay
// barriers.
void SyncPipeline::maybeFlush() {
    if (!workers_ || !checkpointTable_) {
        return;
    }
    completePendingFlush();
    auto interval = std::chrono::seconds(setup_.syncer.checkpointFlushIntervalSeconds);
    if (pendingFlush_ || Steady::now() - lastFlush_ < interval) {
        return;
    }
    pendingFlush_ =
        PendingFlush{tracker_.planFlush(exitSafeMark_), workers_->lastDispatchedSequence(), groups_.lastSeq()};
    completePendingFlush();  // nothing in flight: written at once
}

void SyncPipeline::completePendingFlush() {
    if (!pendingFlush_) {
        return;
    }
    checkWorkers();  // an error: never written (the session fails here)
    if (workers_->appliedSequence() < pendingFlush_->lastSequence) {
        return;
    }
    // A failed worker counts the changes it dropped as done: look for errors again after the sequence
    // (the error is counted before the drop is published).
    checkWorkers();
    checkpoint::FlushPlan plan = std::move(pendingFlush_->plan);
    uint64_t transactionSeq = pendingFlush_->transactionSeq;
    pendingFlush_.reset();
    plan.exitSafePoint = exitSafeMark_;  // it may have been raised since: never lower the persisted mark
    persist(std::move(plan), "interval", transactionSeq);
}

void SyncPipeline::flush(const char* why, const Location& ddlAt) {
    if (!workers_ || !checkpointTable_) {
        return;
    }
    // The barrier: every change dispatched so far has committed, and no worker failed since the last
    // flush. Only then may the points move (DESIGN.md invariant 1).
    apply::BarrierResult barrier = workers_->barrier();
    if (!barrier.ok()) {
        failWith(*barrier.failure);
    }
    pendingFlush_.reset();  // this flush covers more
    binlog::Location exitSafe = exitSafeMark_;
    if (std::string_view(why) == kFlushAtStop) {
        // Nothing past the last dispatched event was applied by this session; an earlier, unclean one
        // may have applied up to the window this session opened with (safeModeUntil_, which
        // never reaches past the upstream's end at the start). A clean stop after everything is
        // committed leaves exit-safe = global, so the next start is not in safe mode.
        exitSafe = latest(latest(tracker_.globalInMemory(), lastDispatched_), safeModeUntil_);
    } else if (!ddlAt.isEmpty()) {
        // Before a DDL: nothing past it is dispatched, so the mark may stand exactly at it (ddl_applier.h).
        exitSafe = latest(Location(ddlAt.position()), safeModeUntil_);
    }
    // The global point in memory is the end of the last complete transaction; table points of a
    // transaction cut short were never moved (they move at the transaction's end).
    persist(tracker_.planFlush(exitSafe), why, groups_.lastSeq());
}

void SyncPipeline::persist(checkpoint::FlushPlan plan, const char* why, uint64_t transactionSeq) {
    auto started = Steady::now();
    checkpointTable_->flush(setup_.sourceId, plan);
    tracker_.markPersisted(plan);
    exitSafeMark_ = plan.exitSafePoint;
    lastFlush_ = Steady::now();
    // Changes dispatched before the flushed point are committed: their transaction starts are no longer needed.
    transactionStarts_.erase(transactionStarts_.begin(), transactionStarts_.lower_bound(transactionSeq));
    double milliseconds = std::chrono::duration<double, std::milli>(lastFlush_ - started).count();
    spdlog::debug("task {}: checkpoint flushed ({}) at {} in {:.1f} ms", setup_.taskName, why,
                  plan.globalPoint.toString(), milliseconds);
    std::lock_guard lock(liveMutex_);
    live_.lastFlush = Clock::now();
    live_.lastFlushMilliseconds = milliseconds;
}

void SyncPipeline::raiseExitSafeMarkPast(const binlog::BinlogPosition& position) {
    if (!exitSafeMark_.position().isEmpty() && position <= exitSafeMark_.position()) {
        return;
    }
    // Never dispatch past the persisted mark: write a new one far enough ahead to be rare.
    Location mark(binlog::BinlogPosition(position.file(), position.offset() + setup_.exitSafeStepBytes));
    checkpointTable_->flushExitSafePoint(setup_.sourceId, tracker_.globalPersisted(), mark);
    tracker_.markExitSafePersisted(mark);
    exitSafeMark_ = mark;
}

void SyncPipeline::checkWorkers() {
    if (workers_ && workers_->errorCount() > 0) {
        if (auto failure = workers_->firstError()) {
            failWith(*failure);
        }
    }
}

void SyncPipeline::failWith(const apply::ApplyFailure& failure) {
    SessionFailure error{failureOutcome(failure.describe(), failure.errorClass == apply::ErrorClass::Retryable)};
    error.outcome.failedEvent = failedEventOf(failure);
    auto start = transactionStarts_.find(failure.change.transactionSeq);
    if (start != transactionStarts_.end()) {
        error.outcome.failedTransactionStart = start->second;
    }
    throw error;
}

void SyncPipeline::updateLive(const binlog::Event& event) {
    if (event.endPos != 0) {
        std::lock_guard lock(liveMutex_);
        live_.read.file = event.file.empty() ? currentFile_ : std::string(event.file);
        live_.read.pos = event.endPos;
        live_.read.gtid.clear();
        ++live_.eventsRead;
    }
    // The workers' counters are copied (maps per table) at most at the status rate, not per event.
    auto now = Steady::now();
    if (now - lastCountersUpdate_ < kLiveCountersInterval) {
        return;
    }
    lastCountersUpdate_ = now;
    copyCounters();
}

void SyncPipeline::copyCounters() {
    apply::ApplyCounters counters = workers_ ? workers_->counters() : apply::ApplyCounters{};
    std::lock_guard lock(liveMutex_);
    live_.rowsApplied = counters.rowsApplied;
    live_.workerQueueDepths = counters.queueDepths;
    live_.rowsPerTable.clear();
    for (const auto& [table, rows] : counters.rowsAppliedByTable) {
        live_.rowsPerTable.push_back({{table.schema, table.table}, rows});
    }
    live_.safeMode = setup_.syncer.safeMode || inSafeMode_;
    if (setup_.syncer.safeMode) {
        live_.safeModeReason = "the task sets safe-mode: true";
        live_.safeModeUntil = {};
    } else if (inSafeMode_) {
        live_.safeModeReason = "replaying events that may have been applied before an unclean stop";
        live_.safeModeUntil = PointView{safeModeUntil_.position().file(), safeModeUntil_.position().offset(), {}, {}};
    } else {
        live_.safeModeReason.clear();
        live_.safeModeUntil = {};
    }
}

// Under liveMutex_, from the pipeline's thread or the status publisher's (so that the view stays
// current while the pipeline waits on the stream or on a barrier). The applied point follows the
// workers' commits, not only the flushes; the oldest unapplied event is the first dispatched
// transaction not yet committed, else the open transaction; 0 means everything read is applied (the
// task's LagClock then compares the read point with the upstream's position).
void SyncPipeline::refreshAppliedLocked() const {
    apply::WorkerPool* pool = livePool_.load(std::memory_order_acquire);
    bool healthy = pool != nullptr && !pool->firstError();
    uint64_t appliedSequence = healthy ? pool->appliedSequence() : 0;
    if (healthy) {
        if (std::optional<PointView> applied = frontier_.advance(appliedSequence)) {
            live_.applied = std::move(*applied);
        }
    }
    bool drained = healthy && appliedSequence == pool->lastDispatchedSequence();
    if (frontier_.empty() && openTransactionTimestamp_ == 0 && drained && live_.read.known()) {
        live_.applied = live_.read;  // every event read is done
    }
    live_.oldestUnappliedTimestamp = frontier_.empty() ? openTransactionTimestamp_ : frontier_.oldestTimestamp();
}

// When the session ends its last live view says what stays unapplied (a failed transaction, or one
// cut short by a pause), also when the end came faster than the view's refresh.
void SyncPipeline::settleLiveAtEnd() {
    copyCounters();  // the session's final counts: the task adds them to its totals
    std::lock_guard lock(liveMutex_);
    refreshAppliedLocked();
}

}  // namespace syncscope::task
