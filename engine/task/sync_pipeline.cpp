#include "engine/task/sync_pipeline.h"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "engine/apply/apply_failure.h"
#include "engine/apply/error_class.h"
#include "engine/apply/worker_pool.h"
#include "engine/common/error.h"
#include "engine/filter/ddl_classifier.h"
#include "engine/schema/cascade_family.h"
#include "engine/schema/schema_tracker.h"
#include "engine/source/binlog_server_source.h"
#include "engine/source/upstream_connection.h"
#include "engine/task/apply_pool_settings.h"
#include "engine/task/ddl_statement.h"
#include "engine/task/failed_event_view.h"
#include "engine/task/pipeline_control.h"
#include "engine/task/row_change_builder.h"

namespace syncscope::task {

namespace {

using binlog::Location;
using binlog::PositionOrder;

constexpr uint64_t kFirstEventOffset = 4;  // after the binlog file's magic bytes

}  // namespace

SyncPipeline::SyncPipeline(const TaskSetup& setup, checkpoint::CheckpointTracker& tracker, PipelinePorts ports)
    : setup_(setup), tracker_(tracker), ports_(std::move(ports)) {}

SyncPipeline::~SyncPipeline() {
    if (workers_) {
        workers_->stop();
    }
}

void SyncPipeline::cancel() {
    stopGrace_.request();
}

SessionLiveView SyncPipeline::live() const {
    SessionLiveView view = live_.current();
    if (auto connection = reader_.connection()) {
        view.stream = *connection;
    }
    return view;
}

SessionOutcome SyncPipeline::failureOutcome(const std::string& message, bool retryable) const {
    SessionOutcome outcome;
    outcome.kind = SessionOutcome::Kind::Failed;
    outcome.retryable = retryable;
    outcome.message = message;
    return outcome;
}

SessionOutcome SyncPipeline::run(const std::optional<SkipRequest>& skip, const std::atomic<bool>& interrupt) {
    skip_.ask(skip);
    SessionOutcome outcome = stream(interrupt);
    settleLiveAtEnd();
    if (flushCoordinator_) {
        spdlog::info("task {}: checkpoint writes this session: {}", setup_.taskName, flushCoordinator_->stats().text());
    }
    return outcome;
}

SessionOutcome SyncPipeline::stream(const std::atomic<bool>& interrupt) {
    try {
        Location start = prepare();
        live_.startAt(PointView{start.position().file(), start.position().offset(), {}, {}});
        StreamStart from{start, setup_.enableGtid, setup_.heartbeatSeconds};
        reader_.open(ports_.openStream ? ports_.openStream(from) : openServerStream(setup_.upstream, from));
        // Every event is handled (its rows converted into owned row changes) before the stream reads the
        // next one: row text may stay in the raw event's bytes, and the rows events' memory is reused.
        decoder_.setRowTextStorage(binlog::TextStorage::Borrow);
        while (stopGrace_.keepsReading(interrupt, transactionTracker_.inGroup(), transactionStart_) &&
               !stopPoint_.reached()) {
            decoder_.recycle(events_);
            std::optional<binlog::RawEvent> raw = reader_.next();
            flushCoordinator_->checkWorkers();
            if (!raw) {
                if (!transactionTracker_.inGroup()) {
                    atBoundary();  // an idle stream still persists what has committed
                }
                updateLive({});
                continue;
            }
            decoder_.decodeInto(*raw, events_);
            for (const binlog::Event& event : events_) {
                if (reader_.handledBefore(event, currentFile_)) {
                    continue;
                }
                if (stopPoint_.stopsBefore(event, currentFile_, transactionTracker_.inGroup())) {
                    break;
                }
                if (!transactionTracker_.inGroup()) {
                    // Open before the check: a cancel() that finds it closed cuts the stream, one that
                    // finds it open is seen here (both atomics are sequentially consistent).
                    if (!stopGrace_.mayOpenTransaction(interrupt)) {
                        break;
                    }
                }
                onEvent(event);
                reader_.handled(event, currentFile_);
                stopGrace_.transactionOpen(transactionTracker_.inGroup());
                if (stopPoint_.reached()) {
                    break;
                }
            }
        }
        // A graceful end: persist what has committed (a transaction cut short by a second stop request, a
        // stop point or the grace, is read again from the global point next time).
        flush(FlushReason::AtStop);
        SessionOutcome ended;
        ended.stopPointReached = stopPoint_.reason();
        return ended;
    } catch (const ShardResync& resync) {
        SessionOutcome ended;
        ended.resync = resync.message;
        return ended;
    } catch (const SessionFailure& failure) {
        return failure.outcome;
    } catch (const apply::DownstreamError& e) {
        return failureOutcome(e.what(), apply::classifyDownstreamError(e.code()) == apply::ErrorClass::Retryable);
    } catch (const source::UpstreamError& e) {
        // Only a lost or refused connection can heal by itself; a purged position, a wrong password, a
        // missing grant or wrong server settings wait for the DBA.
        return failureOutcome(e.what(), source::BinlogServerSource::isRetryable(e.code()));
    } catch (const schema::SchemaError& e) {
        // Reading a table's structure while the downstream restarts is retried like any lost connection.
        bool retryable =
            e.serverCode() != 0 && apply::classifyDownstreamError(e.serverCode()) == apply::ErrorClass::Retryable;
        return failureOutcome(e.what(), retryable);
    } catch (const std::exception& e) {
        return failureOutcome(e.what(), false);
    }
}

Location SyncPipeline::locationAt(const binlog::Event& event) const {
    Location location(
        binlog::BinlogPosition(event.file.empty() ? currentFile_ : std::string(event.file), event.endPos));
    location.setGtids(transactionTracker_.gtids());
    return location;
}

void SyncPipeline::onEvent(const binlog::Event& event) {
    if (event.header.timestamp != 0) {
        lastEventTimestamp_ = event.header.timestamp;
    }
    if (event.as<binlog::HeartbeatEvent>() != nullptr) {
        if (!transactionTracker_.inGroup()) {
            atBoundary();  // idle upstream: persist what has committed
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
        transactionTracker_.onMariaDbGtid(*gtid, startOf(event), timestampOf(event));
        onGroupOpened();
    } else if (const auto* mysqlGtid = event.as<binlog::MySqlGtidEvent>()) {
        closeDanglingGroup(event);
        transactionTracker_.onMySqlGtid(*mysqlGtid, startOf(event), timestampOf(event));
        onGroupOpened();
    } else if (const auto* query = event.as<binlog::QueryEvent>()) {
        onQuery(event, *query);
    } else if (const auto* rows = event.as<binlog::RowsEvent>()) {
        onRows(event, *rows);
    } else if (event.as<binlog::XidEvent>() != nullptr) {
        endTransaction(event);
    } else if (!transactionTracker_.inGroup() && carriesNothingToApply(event.type())) {
        // A binlog checkpoint, GTID list or stop event between groups: an upstream that goes idle after one
        // must not leave the checkpoint short of its end.
        passIdle(locationAt(event));
    } else if (event.type() == binlog::EventType::XaPrepare && transactionTracker_.inGroup()) {
        // An XA branch's group ends at XA PREPARE; MySQL logs XA COMMIT ... ONE PHASE the same way,
        // with the first byte of the event's body set: that branch commits here.
        const auto* body = event.as<binlog::OtherEvent>();
        if (body != nullptr && !body->body.empty() && body->body.front() != 0 && !skip_.skipping()) {
            PreparedBranch branch = preparedXa_.takeReading();
            feed_->branch(branch, groupSeq(), locationAt(event));
            transactionTracker_.markCommittedInOnePhase();
        }
        endTransaction(event);
    }
    updateLive(event);
}

// Between groups a rotation moves the global point into the new file, so that an idle upstream that
// rotated (FLUSH BINARY LOGS, a restart) does not leave the checkpoint in a file that may be purged
// next. Positions only move forward: the fake rotation a dump starts with never moves them back.
void SyncPipeline::followRotation(const binlog::Event& formatDescription) {
    std::string file = formatDescription.file.empty() ? currentFile_ : std::string(formatDescription.file);
    if (transactionTracker_.inGroup() || file.empty()) {
        return;
    }
    Location next(binlog::BinlogPosition(file, kFirstEventOffset));
    next.setGtids(transactionTracker_.gtids());
    passIdle(next);
}

bool SyncPipeline::carriesNothingToApply(binlog::EventType type) {
    using binlog::EventType;
    return type == EventType::BinlogCheckpoint || type == EventType::GtidList || type == EventType::PreviousGtids ||
           type == EventType::Stop;
}

// Between groups, the global point moves to `next` (only forward) as if a group had ended there.
void SyncPipeline::passIdle(const Location& next) {
    Location global = preparedXa_.globalBefore(tracker_.globalInMemory());
    try {
        if (next.compare(global) == PositionOrder::After) {
            live_.passedIdle(PointView{next.position().file(), next.position().offset(), {}, {}});
            takePoints(preparedXa_.groupEnded(next, {}));
        }
    } catch (const binlog::PositionError& e) {
        spdlog::debug("task {}: the checkpoint stays at {}: {}", setup_.taskName, global.toString(), e.what());
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
    if (!transactionTracker_.inGroup()) {
        return;
    }
    spdlog::warn("task {}: the event group at {} has no terminator before the GTID at {}; it ends there",
                 setup_.taskName, transactionTracker_.group()->start.toString(), startOf(nextGtid).toString());
    endTransaction(nextGtid);
}

void SyncPipeline::onGroupOpened() {
    const OpenGroup& group = *transactionTracker_.group();
    transactionStart_ = group.start;
    live_.groupOpened(group.timestamp);
    transactionStarts_.record(group.seq, group.start);
    feed_->transactionOpened();
    preparedXa_.discardReading();
    skip_.transactionOpened(transactionStart_);
}

void SyncPipeline::endTransaction(const binlog::Event& event) {
    if (!transactionTracker_.inGroup()) {
        return;  // a terminator without a group (the stream began inside one): nothing to end
    }
    OpenGroup ended = transactionTracker_.end();
    Location end = locationAt(event);
    if (ended.kind == GroupKind::XaPrepare && !skip_.skipping() &&
        preparedXa_.prepareReading(ended.branch, ended.seq, ended.start, tracker_.globalInMemory()) != 0) {
        // The branch's rows wait for its outcome; the checkpoint holds before its group from now on.
        spdlog::info("task {}: XA branch {} prepared at {}: its rows wait for XA COMMIT", setup_.taskName, ended.branch,
                     ended.start.toString());
    }
    preparedXa_.discardReading();
    takePoints(preparedXa_.groupEnded(end, feed_->takeTablePoints()));
    stopPoint_.groupEnded(end);
    live_.groupEnded(workers_ ? workers_->lastDispatchedSequence() : 0,
                     PointView{end.position().file(), end.position().offset(), {}, {}},
                     ended.timestamp != 0 ? ended.timestamp : lastEventTimestamp_);
    skip_.transactionEnded();
    atBoundary();
}

// Between transactions (a group's end, an idle stream, a heartbeat): once the global point has passed the
// replay window (flush_coordinator.h), every replayed DDL the downstream's definitions did not place stops
// the task, naming both definitions; then the flush coordinator writes what is due.
void SyncPipeline::atBoundary() {
    if (transactionTracker_.inGroup()) {
        return;
    }
    if (replay_ && replay_->isOpen()) {
        if (std::optional<std::string> stop =
                replay_->endOnceGlobalPasses(tracker_.globalInMemory(), flushCoordinator_->safeModeUntil())) {
            throw SessionFailure{failureOutcome(*stop, false)};
        }
    }
    if (shards_ != nullptr && shards_->version() != shardVersion_) {
        followShardLocks();
    }
    if (optimistic_ != nullptr && optimistic_->version() != optimisticVersion_) {
        // Another shard changed a merged table: the downstream facts of every table are read again.
        optimisticVersion_ = optimistic_->version();
        schemas_->forgetAll();
    }
    if (flushCoordinator_) {
        flushCoordinator_->atBoundary(transactionTracker_.lastSeq());
    }
}

void SyncPipeline::takePoints(const HeldPointsRelease& release) {
    for (const auto& [table, location] : release.tables) {
        tracker_.advanceTable(table, location);
    }
    if (release.global) {
        if (holdingGlobal_) {
            heldLatest_ = *release.global;  // a shard DDL lock waits: the global point stays before it
        } else {
            tracker_.advanceGlobal(*release.global);
        }
    }
}

void SyncPipeline::onRows(const binlog::Event& event, const binlog::RowsEvent& rows) {
    if (skip_.skipping()) {
        return;
    }
    if (online_ && online_->ignoresRowsOf(rows.table->schema, rows.table->table, rows.rowCount())) {
        return;  // a shadow or trash table of an online schema change tool (online-ddl)
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
        return;  // applied before the last flush of this table's point (docs/design.md invariant 4)
    }
    if (!waitingShards_.empty() && waitingShards_.contains(table)) {
        return;  // its shard DDL lock waits: read again at the re-sync, from the held global point
    }
    const OpenGroup* group = transactionTracker_.group();
    // The failed-event report names the row's own transaction, not the GTID state before it.
    apply::SourcePoint source{at.position().file(), at.position().offset(), group != nullptr ? group->gtidText : ""};
    if (group != nullptr && group->kind == GroupKind::XaPrepare) {
        // Kept until the branch's outcome is read (safe mode is decided then).
        rowChanges_->build(rows, std::move(source), groupSeq(), false, preparedXa_.readingChanges());
        preparedXa_.readingTouches(table);
        return;
    }
    feed_->rows(rows, std::move(source), groupSeq(), table, at);
}

uint64_t SyncPipeline::groupSeq() const {
    const OpenGroup* group = transactionTracker_.group();
    return group != nullptr ? group->seq : transactionTracker_.lastSeq();
}

void SyncPipeline::flush(FlushReason reason, const Location& ddlAt) {
    if (flushCoordinator_) {
        flushCoordinator_->flushNow(reason, transactionTracker_.lastSeq(), ddlAt);
    }
}

void SyncPipeline::failWith(const apply::ApplyFailure& failure) {
    SessionFailure error{failureOutcome(failure.describe(), failure.errorClass == apply::ErrorClass::Retryable)};
    error.outcome.failedEvent = failedEventOf(failure);
    if (auto start = transactionStarts_.find(failure.change.transactionSeq)) {
        error.outcome.failedTransactionStart = std::move(*start);
    }
    throw error;
}

void SyncPipeline::updateLive(const binlog::Event& event) {
    if (event.endPos != 0) {
        live_.eventRead(event.file.empty() ? std::string_view(currentFile_) : event.file, event.endPos);
    }
    // Per event only the read point moves; counters, safe mode and held rows at most at the status rate.
    if (!live_.countersDue()) {
        return;
    }
    live_.copyCounters(safeMode());
    live_.heldRows(preparedXa_.waitingChanges());
    publishOnlineChanges();
}

void SyncPipeline::publishOnlineChanges() {
    if (online_ && online_->viewVersion() != onlineViewVersion_) {
        onlineViewVersion_ = online_->viewVersion();
        live_.onlineChanges(online_->view());
    }
}

SafeModeView SyncPipeline::safeMode() const {
    return feed_ ? feed_->safeMode() : taskSafeMode(setup_);
}

void SyncPipeline::settleLiveAtEnd() {
    publishOnlineChanges();
    live_.settle(safeMode());
}

// The start: the control port, the persisted checkpoint and the start point, the workers, the flush
// coordinator with safe mode's window, and the schema tracker.

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
    if (setup_.onlineDdl) {
        online_ = std::make_unique<OnlineDdlTracker>(
            setup_.onlineDdl, setup_.taskName,
            [this](const filter::TableName& table) { return !setup_.blockAllow || setup_.blockAllow->allows(table); });
        online_->load(control_->onlineDdlEntries());
        // The recorded DDLs change only at a DDL, which ends with a barrier flush: they are persisted
        // with exactly the points they belong to.
        // While a shard lock holds the global point they wait too: the global point persisted stays before them,
        // and a re-sync reads them again from there (they are persisted when the hold ends).
        flushCoordinator_->alsoAtEachBarrier(
            [this] { return holdingGlobal_ ? std::vector<checkpoint::OnlineDdlWrite>{} : online_->takeWrites(); });
    }

    shards_ = setup_.shardLocks.get();
    optimistic_ = setup_.optimisticShards.get();
    optimisticVersion_ = optimistic_ != nullptr ? optimistic_->version() : 0;

    // The schema tracker runs on this (the reader's) thread, as does the control connection.
    schemas_ = std::make_unique<schema::SchemaTracker>(
        [this](const schema::TableName& target) { return control_->loadSchema(target); });
    rowChanges_ = std::make_unique<RowChangeBuilder>(setup_, *schemas_);
    replay_ = std::make_unique<ReplayWindow>(setup_, *control_);
    ddl_ = std::make_unique<DdlRunner>(setup_.taskName, *control_, *schemas_, *replay_);
    feed_ = std::make_unique<WorkerFeed>(setup_, *rowChanges_, *flushCoordinator_, *replay_, *workers_,
                                         control_->appliedMarks(), persisted.globalPoint);
    return start;
}

// The statements: transaction control, XA branches (held until their outcome is read) and DDL (run after a
// barrier flush, with its possibly-applied window).

void SyncPipeline::onQuery(const binlog::Event& event, const binlog::QueryEvent& query) {
    using Kind = binlog::QueryEvent::Kind;
    switch (query.kind) {
        case Kind::Begin:
            if (!transactionTracker_.inGroup()) {
                transactionTracker_.onBegin(startOf(event), timestampOf(event));
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
        if (!transactionTracker_.inGroup()) {
            transactionTracker_.onBegin(startOf(event), timestampOf(event));
            onGroupOpened();
        }
        transactionTracker_.markXaBranch(std::move(branch));
        return;
    }
    std::optional<XaOutcome> outcome = xaOutcomeOf(query.query);
    if (!outcome) {
        return;  // XA END: the branch goes on to its XA PREPARE
    }
    if (!transactionTracker_.inGroup()) {
        transactionTracker_.openForDdl(startOf(event), timestampOf(event));
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
    } else if (outcome->commit && !skip_.skipping()) {
        Location at = locationAt(event);
        size_t rows = branch->changes.size();
        feed_->branch(*branch, groupSeq(), at);
        spdlog::info("task {}: XA COMMIT of branch {} at {}: {} rows applied", setup_.taskName, outcome->branch,
                     at.toString(), rows);
    } else if (outcome->commit) {
        spdlog::warn("task {}: XA COMMIT of branch {} at {} skipped as the DBA asked: its {} rows are not applied",
                     setup_.taskName, outcome->branch, startOf(event).toString(), branch->changes.size());
    } else {
        spdlog::info("task {}: XA ROLLBACK of branch {} at {}: its {} rows are dropped", setup_.taskName,
                     outcome->branch, startOf(event).toString(), branch->changes.size());
    }
    endTransaction(event);
}

void SyncPipeline::failOnDdl(const binlog::Event& event, const binlog::QueryEvent& query, const Location& at,
                             const std::string& sql, int code, const std::string& message, bool retryable) {
    SessionFailure failure{failureOutcome(message, retryable)};
    failure.outcome.failedTransactionStart = transactionTracker_.inGroup() ? transactionStart_ : startOf(event);
    failure.outcome.failedEvent = ddlFailedEvent(at, query, sql, code, message);
    throw failure;
}

// A swap's DDLs are not idempotent (an unnamed ADD INDEX adds a second index), so the real table's
// downstream definition before them is kept with the barrier flush that precedes them (no session runs
// them before that flush). A swap read again with that definition kept (after a kill while its DDLs ran)
// is judged from it; one without it never had its DDLs begun, so the definition now is the one before
// them. The replay window alone cannot say which: it also covers events no session applied.
void SyncPipeline::keepSwapBefore(OnlineDdlStep& swap, const Location& at) {
    schema::TableName target = setup_.router && !setup_.router->empty() ? setup_.router->route(swap.real) : swap.real;
    const bool replayed = flushCoordinator_->inReplayWindow(at);
    if (!replayed || swap.swapBefore.empty()) {
        if (std::optional<std::string> before = control_->createStatement(target)) {
            online_->swapStarting(swap.shadow, *before);
            swap.swapBefore = *before;
        }
    }
    if (replayed && !swap.swapBefore.empty()) {
        control_->replayedTableWas(target, swap.swapBefore);
    }
}

void SyncPipeline::onDdl(const binlog::Event& event, const binlog::QueryEvent& query) {
    bool ownGroup = transactionTracker_.ddlIsOwnGroup();
    if (skip_.skipping()) {
        if (ownGroup) {
            endTransaction(event);
        }
        return;
    }
    Location at = locationAt(event);
    OnlineDdlStep online;
    if (online_) {
        online = online_->onStatement(filter::DdlClassifier::classify(query.query, query.schema), query.query, at);
        if (online.kind == OnlineDdlStep::Kind::Error) {
            failOnDdl(event, query, at, query.query, 0, online.reason + " at " + at.toString() + ": " + query.query,
                      false);
        }
    }
    std::vector<DdlPlan> plans;
    if (online.kind == OnlineDdlStep::Kind::Swap) {
        for (const std::string& ddl : online.ddls) {
            plans.push_back(planDdl(setup_, {}, ddl));
        }
    } else if (online.kind == OnlineDdlStep::Kind::Pass) {
        plans.push_back(planDdl(setup_, query.schema, online.sql.empty() ? query.query : online.sql));
    } else {
        spdlog::info("task {}: DDL at {} not run downstream ({}): {}", setup_.taskName, at.toString(), online.reason,
                     query.query);
    }
    if (online.kind == OnlineDdlStep::Kind::Swap) {
        keepSwapBefore(online, at);
    }
    if (shards_ != nullptr && online.kind == OnlineDdlStep::Kind::Pass && onShardDdl(event, query, at, plans)) {
        if (ddlDone(event, ownGroup)) {
            followShardLocks();
        }
        return;
    }
    bool barrierDone = false;
    for (const DdlPlan& plan : plans) {
        if (plan.action == DdlPlan::Action::Error) {
            failOnDdl(event, query, at, plan.sql, 0, plan.reason + " at " + at.toString() + ": " + plan.sql, false);
        }
        if (plan.action != DdlPlan::Action::Apply) {
            spdlog::info("task {}: ignored DDL at {} ({}): {}", setup_.taskName, at.toString(), plan.reason, plan.sql);
            continue;
        }
        if (shards_ != nullptr && coveredByTablePoints(plan, at)) {
            // Read again from a held global point (a shard lock's re-sync, or a restart while one waited): it ran.
            spdlog::info("task {}: DDL at {} ran before (its tables' points cover it): {}", setup_.taskName,
                         at.toString(), plan.sql);
            continue;
        }
        if (!barrierDone) {
            // Every row before the DDL must be downstream before the table changes shape, and the points
            // before it persisted, with the exit-safe point at this DDL: after a kill during it, this DDL
            // lies in the next session's replay window (ddl_applier.h).
            flush(FlushReason::BeforeDdl, at);
            barrierDone = true;
        }
        try {
            ddl_->run(plan, at, feed_->admit(at).inReplayWindow);
        } catch (const DdlFailed& failed) {
            failOnDdl(event, query, at, failed.sql, failed.code, failed.message, failed.retryable);
        }
        if (shards_ != nullptr) {
            // DM's rule: a DDL moves the points of the tables it changes, so that a read again from a global
            // point a shard lock held passes it over rather than running it a second time.
            for (const filter::TableName& table : plan.tables) {
                if (!table.table.empty()) {
                    tracker_.raiseTable({table.schema, table.table}, at);
                }
            }
        }
    }
    if (online.kind == OnlineDdlStep::Kind::Swap) {
        spdlog::info("task {}: the online schema change of {} ({} DDLs) is swapped in at {}; the rename is not run",
                     setup_.taskName, online.real.quoted(), online.ddls.size(), at.toString());
        online_->swapped(online.shadow);
    }
    ddlDone(event, ownGroup);
}

bool SyncPipeline::ddlDone(const binlog::Event& event, bool ownGroup) {
    if (!ownGroup) {
        // CREATE TABLE ... SELECT: the group's rows follow; the group ends at its terminator.
        transactionTracker_.markDdlInGroup();
        return false;
    }
    if (!transactionTracker_.inGroup()) {
        transactionTracker_.openForDdl(startOf(event), timestampOf(event));
        onGroupOpened();
    }
    endTransaction(event);
    flush(FlushReason::AfterDdl);
    return true;
}

// Shard merge (shard_ddl_locks.h). A DDL of a shard table is an arrival in its group's lock: the barrier
// flush first (every row before it is downstream before any source changes the merged table), then it
// waits, runs the DDLs (the arrival that completed the lock) or passes them over (they ran before a kill).
// DDLs that would drop or empty the merged table for one shard are not run; a rename is refused.
bool SyncPipeline::onShardDdl(const binlog::Event& event, const binlog::QueryEvent& query, const Location& at,
                              const std::vector<DdlPlan>& plans) {
    using filter::StatementKind;
    std::optional<ShardTable> shard;
    std::optional<TableName> target;
    for (const DdlPlan& plan : plans) {
        for (const filter::TableName& table : plan.tables) {
            if (auto merged = shards_->targetOf(setup_.sourceId, {table.schema, table.table})) {
                shard = ShardTable{setup_.sourceId, {table.schema, table.table}};
                target = merged;
            }
        }
    }
    if (!shard || plans.size() != 1 || plans.front().action != DdlPlan::Action::Apply) {
        return false;
    }
    const DdlPlan& plan = plans.front();
    const StatementKind kind = filter::DdlClassifier::classify(query.query, query.schema).kind;
    if (kind == StatementKind::RenameTable) {
        failOnDdl(event, query, at, plan.sql, 0,
                  "shard table " + shard->text() + " renamed at " + at.toString() +
                      ": a rename of a table merged into " + target->text() +
                      " is not supported in shard merge; apply it downstream by hand, then skip it",
                  false);
    }
    if (kind == StatementKind::DropTable || kind == StatementKind::TruncateTable ||
        kind == StatementKind::CreateTable) {
        // The merged table holds every shard's rows: one shard's DROP or TRUNCATE must not empty it, and a
        // shard's CREATE finds it made.
        spdlog::warn("task {}: DDL of shard table {} at {} not run on the merged table {}: {}", setup_.taskName,
                     shard->text(), at.toString(), target->text(), query.query);
        return true;
    }
    if (waitingShards_.contains(shard->table)) {
        return true;  // a later DDL of a table that waits: read again at the re-sync
    }
    if (tracker_.coveredByTablePoint(shard->table, at)) {
        spdlog::info("task {}: shard DDL of {} at {} ran downstream before (its table point covers it): {}",
                     setup_.taskName, shard->text(), at.toString(), query.query);
        shards_->passed(*shard, at.toString());
        return true;
    }
    if (optimistic_ != nullptr && weighOptimistic(event, query, at, *shard, *target, plan)) {
        return true;
    }
    ShardDdlLocks::Verdict verdict = shards_->arrive(*shard, *target, {plan.sql}, at);
    switch (verdict.kind) {
        case ShardDdlLocks::Verdict::Kind::Conflict:
            failOnDdl(event, query, at, plan.sql, 0, verdict.reason, false);
        case ShardDdlLocks::Verdict::Kind::Wait:
            flush(FlushReason::BeforeDdl, at);
            waitingShards_.insert(shard->table);
            holdGlobal();
            spdlog::info("task {}: shard DDL of {} at {} waits ({}); its rows wait, the global point holds at {}: {}",
                         setup_.taskName, shard->text(), at.toString(), verdict.reason,
                         tracker_.globalInMemory().toString(), plan.sql);
            return true;
        case ShardDdlLocks::Verdict::Kind::Done:
            spdlog::info("task {}: shard DDL of {} at {} passed over: it {}: {}", setup_.taskName, shard->text(),
                         at.toString(), verdict.reason, plan.sql);
            tracker_.raiseTable(shard->table, at);
            schemas_->forgetTable({shard->table.schema, shard->table.table});
            return true;
        case ShardDdlLocks::Verdict::Kind::Execute:
            break;
    }
    flush(FlushReason::BeforeDdl, at);
    try {
        ddl_->run(plan, at, feed_->admit(at).inReplayWindow);
    } catch (const DdlFailed& failed) {
        failOnDdl(event, query, at, failed.sql, failed.code, failed.message, failed.retryable);
    }
    lockRan(*target);
    return true;
}

bool SyncPipeline::weighOptimistic(const binlog::Event& event, const binlog::QueryEvent& query, const Location& at,
                                   const ShardTable& shard, const TableName& target, const DdlPlan& plan) {
    using Kind = OptimisticShardDdl::Verdict::Kind;
    auto turn = optimistic_->turn();
    OptimisticShardDdl::Verdict verdict;
    try {
        verdict =
            optimistic_->weigh(shard, target, plan.sql, control_->mergedTable(target),
                               [this](const std::string& definition) { return control_->probeColumn(definition); });
    } catch (const Error& e) {
        const std::string why = "the merged table " + target.text() + " cannot be read downstream to weigh the " +
                                "shard DDL at " + at.toString() + ": " + e.what();
        throw SessionFailure{failureOutcome(why, true)};
    }
    switch (verdict.kind) {
        case Kind::Conflict:
            failOnDdl(event, query, at, plan.sql, 0, "shard DDL conflict at " + at.toString() + ": " + verdict.reason,
                      false);
        case Kind::Coordinate:
            spdlog::info("task {}: shard DDL of {} at {} waits for every shard table ({}): {}", setup_.taskName,
                         shard.text(), at.toString(), verdict.reason, plan.sql);
            return false;
        case Kind::Pass:
            spdlog::info("task {}: shard DDL of {} at {} passed over ({}): {}", setup_.taskName, shard.text(),
                         at.toString(), verdict.reason, plan.sql);
            break;
        case Kind::Run: {
            flush(FlushReason::BeforeDdl, at);
            DdlPlan run = plan;
            run.sql = verdict.sql;
            try {
                ddl_->run(run, at, feed_->admit(at).inReplayWindow);
            } catch (const DdlFailed& failed) {
                failOnDdl(event, query, at, failed.sql, failed.code, failed.message, failed.retryable);
            }
            spdlog::info("task {}: shard DDL of {} at {} ran on the merged table {} at once: {}", setup_.taskName,
                         shard.text(), at.toString(), target.text(), run.sql);
            break;
        }
    }
    try {
        optimistic_->settle(shard, target, verdict);
    } catch (const std::exception& e) {
        // The ledger beside the checkpoint cannot be written now: read again, the DDL is weighed and settled again.
        throw SessionFailure{failureOutcome(e.what(), true)};
    }
    tracker_.raiseTable(shard.table, at);
    schemas_->forgetTable({shard.table.schema, shard.table.table});
    return true;
}

// The lock's DDLs ran: kept in the ledger before anything passes it. A ledger the downstream cannot write now
// (a restart) is retried as any lost connection: the arrival read again finds the DDLs applied.
void SyncPipeline::lockRan(const TableName& target) {
    try {
        shards_->executed(target);
    } catch (const std::exception& e) {
        throw SessionFailure{failureOutcome(e.what(), true)};
    }
}

bool SyncPipeline::coveredByTablePoints(const DdlPlan& plan, const Location& at) const {
    if (plan.tables.empty()) {
        return false;
    }
    for (const filter::TableName& table : plan.tables) {
        if (table.table.empty() || !tracker_.coveredByTablePoint({table.schema, table.table}, at)) {
            return false;  // a schema's DDL, or a table whose point does not cover it
        }
    }
    return true;
}

void SyncPipeline::holdGlobal() {
    if (!holdingGlobal_) {
        holdingGlobal_ = true;
        heldLatest_ = tracker_.globalInMemory();
    }
}

void SyncPipeline::followShardLocks() {
    shardVersion_ = shards_->version();
    if (std::optional<ShardDdlLocks::Forced> forced = shards_->takeForced(setup_.sourceId)) {
        // The DBA's unlock: this source read the DDLs first, it runs them, after a barrier (every row before is
        // downstream).
        flush(FlushReason::AfterDdl);
        for (const std::string& sql : forced->ddls) {
            DdlPlan plan;
            plan.sql = sql;
            try {
                ddl_->run(plan, forced->at, false);
            } catch (const DdlFailed& failed) {
                throw SessionFailure{failureOutcome(
                    "the DBA's unlock of the shard DDL lock on " + forced->target.text() + ": " + failed.message,
                    failed.retryable)};
            }
        }
        lockRan(forced->target);
        shardVersion_ = shards_->version();
    }
    std::vector<ShardArrival> ran;
    bool resync = false;
    for (ShardArrival& arrival : shards_->executedArrivalsOf(setup_.sourceId)) {
        resync = waitingShards_.erase(arrival.shard.table) > 0 || resync;
        tracker_.raiseTable(arrival.shard.table, arrival.at);
        schemas_->forgetTable({arrival.shard.table.schema, arrival.shard.table.table});
        ran.push_back(std::move(arrival));
    }
    if (!ran.empty()) {
        // The table points past the DDLs are persisted before the arrivals are passed.
        flush(FlushReason::AfterDdl);
        for (const ShardArrival& arrival : ran) {
            shards_->passed(arrival.shard, arrival.position);
        }
    }
    if (resync) {
        throw ShardResync{
            "a shard DDL lock this source waited in ran downstream: reading again from the global "
            "point " +
            tracker_.globalPersisted().toString() + " (re-sync)"};
    }
    if (holdingGlobal_ && waitingShards_.empty()) {
        holdingGlobal_ = false;
        if (!heldLatest_.isEmpty()) {
            tracker_.advanceGlobal(heldLatest_);
        }
        // The global point and what waited with it (the online schema changes' rows) persisted together.
        flush(FlushReason::AfterDdl);
    }
}

}  // namespace syncscope::task
