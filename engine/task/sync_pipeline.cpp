#include "engine/task/sync_pipeline.h"

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
constexpr std::chrono::milliseconds kLiveCountersInterval{50};

// The later of two locations; `a` when they cannot be ordered or `b` is empty.
Location latest(const Location& a, const Location& b) {
    if (a.isEmpty()) {
        return b;
    }
    return !b.isEmpty() && b.compare(a) == PositionOrder::After ? b : a;
}

// What a DDL that already ran answers when it runs again: exists / does not exist / duplicate name.
bool isAlreadyAppliedDdlError(int code) {
    constexpr int kDatabaseExists = 1007;
    constexpr int kDatabaseMissing = 1008;
    constexpr int kTableExists = 1050;
    constexpr int kTableMissing = 1051;
    constexpr int kDuplicateColumn = 1060;
    constexpr int kDuplicateKeyName = 1061;
    constexpr int kCannotDropField = 1091;
    constexpr int kNoSuchTable = 1146;
    switch (code) {
        case kDatabaseExists:
        case kDatabaseMissing:
        case kTableExists:
        case kTableMissing:
        case kDuplicateColumn:
        case kDuplicateKeyName:
        case kCannotDropField:
        case kNoSuchTable:
            return true;
        default:
            return false;
    }
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
    safeModeUntil_ = persisted.exitSafePoint;
    exitSafeMark_ = persisted.exitSafePoint;
    gtids_ = start.gtids();
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
                if (!inTransaction_) {
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
    location.setGtids(gtids_);
    return location;
}

void SyncPipeline::handle(const binlog::Event& event) {
    if (event.header.timestamp != 0) {
        lastEventTimestamp_ = event.header.timestamp;
    }
    if (event.as<binlog::HeartbeatEvent>() != nullptr) {
        if (!inTransaction_) {
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
    if (const auto* gtid = event.as<binlog::MariaDbGtidEvent>()) {
        beginTransaction(event);
        transactionGtid_ = binlog::MariaDbGtid{gtid->domainId, gtid->serverId, gtid->sequence};
        if ((gtid->flags & binlog::MariaDbGtidEvent::kStandalone) != 0) {
            // A DDL or other standalone statement: its QUERY event ends the group.
            inTransaction_ = true;
        }
    } else if (const auto* mysqlGtid = event.as<binlog::MySqlGtidEvent>()) {
        beginTransaction(event);
        if (!mysqlGtid->anonymous) {
            transactionMySqlGtid_ = std::make_pair(binlog::uuidText(mysqlGtid->uuid), mysqlGtid->gno);
        }
    } else if (const auto* query = event.as<binlog::QueryEvent>()) {
        onQuery(event, *query);
    } else if (const auto* rows = event.as<binlog::RowsEvent>()) {
        onRows(event, *rows);
    } else if (event.as<binlog::XidEvent>() != nullptr) {
        endTransaction(event);
    }
    updateLive(event);
}

void SyncPipeline::beginTransaction(const binlog::Event& event) {
    inTransaction_ = true;
    ++transactionSeq_;
    transactionStart_ = binlog::BinlogPosition(event.file.empty() ? currentFile_ : std::string(event.file), event.pos);
    transactionTimestamp_ = event.header.timestamp != 0 ? event.header.timestamp : lastEventTimestamp_;
    {
        std::lock_guard lock(liveMutex_);
        openTransactionTimestamp_ = transactionTimestamp_;
    }
    transactionStarts_[transactionSeq_] = transactionStart_;
    transactionGtid_.reset();
    transactionMySqlGtid_.reset();
    transactionTablePoints_.clear();
    skippingTransaction_ = skip_ && skip_->transactionStart == transactionStart_;
    if (skippingTransaction_) {
        spdlog::warn("task {}: skipping the transaction at {} as the DBA asked", setup_.taskName,
                     transactionStart_.toString());
    }
}

void SyncPipeline::endTransaction(const binlog::Event& event) {
    // The GTID state after this transaction.
    if (transactionGtid_) {
        binlog::GtidPosition* position = std::get_if<binlog::GtidPosition>(&gtids_);
        if (position == nullptr) {
            gtids_ = binlog::GtidPosition();
            position = std::get_if<binlog::GtidPosition>(&gtids_);
        }
        position->update(
            binlog::Gtid{transactionGtid_->domainId, transactionGtid_->serverId, transactionGtid_->sequence});
    } else if (transactionMySqlGtid_) {
        binlog::GtidSet* set = std::get_if<binlog::GtidSet>(&gtids_);
        if (set == nullptr) {
            gtids_ = binlog::GtidSet();
            set = std::get_if<binlog::GtidSet>(&gtids_);
        }
        set->add(transactionMySqlGtid_->first, static_cast<uint64_t>(transactionMySqlGtid_->second));
    }
    Location end = locationAt(event);
    for (const auto& [table, location] : transactionTablePoints_) {
        tracker_.advanceTable(table, location);
    }
    transactionTablePoints_.clear();
    tracker_.advanceGlobal(end);
    {
        std::lock_guard lock(liveMutex_);
        frontier_.ended(workers_ ? workers_->lastDispatchedSequence() : 0,
                        PointView{end.position().file(), end.position().offset(), {}, {}},
                        transactionTimestamp_ != 0 ? transactionTimestamp_ : lastEventTimestamp_);
        openTransactionTimestamp_ = 0;
    }
    if (skippingTransaction_) {
        skip_.reset();
        skippingTransaction_ = false;
    }
    inTransaction_ = false;
    transactionGtid_.reset();
    transactionMySqlGtid_.reset();
    maybeFlush();
}

void SyncPipeline::onQuery(const binlog::Event& event, const binlog::QueryEvent& query) {
    using Kind = binlog::QueryEvent::Kind;
    switch (query.kind) {
        case Kind::Begin:
            if (!inTransaction_ || transactionStart_.isEmpty()) {
                beginTransaction(event);
            }
            return;
        case Kind::Commit:
        case Kind::Rollback:
            endTransaction(event);
            return;
        case Kind::Xa:
        case Kind::Savepoint:
            return;
        case Kind::Ddl:
        case Kind::Other:
            onDdl(event, query);
            return;
    }
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
    raiseExitSafeMarkPast(at.position());
    inSafeMode_ = atOrBefore(at, safeModeUntil_);
    bool safeMode = setup_.syncer.safeMode || inSafeMode_;
    // The failed-event report names the row's own transaction, not the GTID state before it.
    std::string transactionGtid;
    if (transactionGtid_) {
        transactionGtid = std::to_string(transactionGtid_->domainId) + "-" +
                          std::to_string(transactionGtid_->serverId) + "-" + std::to_string(transactionGtid_->sequence);
    } else if (transactionMySqlGtid_) {
        transactionGtid = transactionMySqlGtid_->first + ":" + std::to_string(transactionMySqlGtid_->second);
    }
    apply::SourcePoint source{at.position().file(), at.position().offset(), transactionGtid};
    changes_.clear();
    rowChanges_->build(rows, source, transactionSeq_, safeMode, changes_);
    for (apply::RowChange& change : changes_) {
        if (!workers_->dispatch(std::move(change))) {
            checkWorkers();
        }
    }
    transactionTablePoints_[table] = at;
    lastDispatched_ = at;
}

void SyncPipeline::onDdl(const binlog::Event& event, const binlog::QueryEvent& query) {
    if (skippingTransaction_) {
        endTransaction(event);
        return;
    }
    DdlPlan plan = planDdl(setup_, query.schema, query.query);
    Location at = locationAt(event);
    if (plan.action == DdlPlan::Action::Error) {
        SessionFailure failure{failureOutcome(plan.reason + " at " + at.toString() + ": " + query.query, false)};
        failure.outcome.failedTransactionStart =
            transactionStart_.isEmpty() ? binlog::BinlogPosition(at.position().file(), event.pos) : transactionStart_;
        failure.outcome.failedEvent = ddlFailedEvent(at, query, query.query, 0, plan.reason);
        throw failure;
    }
    if (plan.action == DdlPlan::Action::Apply) {
        // Every row before the DDL must be downstream before the table changes shape.
        apply::BarrierResult barrier = workers_->barrier();
        if (!barrier.ok()) {
            failWith(*barrier.failure);
        }
        raiseExitSafeMarkPast(at.position());
        lastDispatched_ = at;
        bool alreadyApplied = false;
        try {
            std::unique_ptr<sql::Statement> statement(control_->createStatement());
            if (!plan.defaultSchema.empty()) {
                statement->execute("USE " + plan.quotedDefaultSchema());
            }
            statement->execute(plan.sql);
        } catch (const sql::SQLException& e) {
            if (atOrBefore(at, safeModeUntil_) && isAlreadyAppliedDdlError(e.getErrorCode())) {
                // Inside the safe-mode window this DDL may have been applied before an unclean stop.
                spdlog::warn("task {}: DDL at {} was applied before the last stop ({}); going on: {}", setup_.taskName,
                             at.toString(), e.what(), plan.sql);
                alreadyApplied = true;
            } else {
                SessionFailure failure{
                    failureOutcome("DDL failed downstream at " + at.toString() + ": " + e.what() + " [" +
                                       std::to_string(e.getErrorCode()) + "]: " + plan.sql,
                                   apply::classifyDownstreamError(e.getErrorCode()) == apply::ErrorClass::Retryable)};
                failure.outcome.failedTransactionStart = transactionStart_.isEmpty()
                                                             ? binlog::BinlogPosition(at.position().file(), event.pos)
                                                             : transactionStart_;
                failure.outcome.failedEvent = ddlFailedEvent(at, query, plan.sql, e.getErrorCode(), e.what());
                throw failure;
            }
        }
        if (!alreadyApplied) {
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
    if (!inTransaction_) {
        beginTransaction(event);
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
        PendingFlush{tracker_.planFlush(exitSafeMark_), workers_->lastDispatchedSequence(), transactionSeq_};
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

void SyncPipeline::flush(const char* why) {
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
        // may have applied up to the mark it started with. Safe mode needs to cover no more than that.
        exitSafe = latest(latest(tracker_.globalInMemory(), lastDispatched_), safeModeUntil_);
    }
    // The global point in memory is the end of the last complete transaction; table points of a
    // transaction cut short were never moved (they move at the transaction's end).
    persist(tracker_.planFlush(exitSafe), why, transactionSeq_);
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
