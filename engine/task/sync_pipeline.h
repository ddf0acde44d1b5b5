// The syncer's reader side for one session: binlog stream -> decoder -> filters -> workers, with the
// transaction bookkeeping that decides what a checkpoint flush may persist.
//
// The rules it keeps (docs/design.md):
// - a flush happens only at a transaction boundary, after a barrier through every worker, and only
//   when no worker error happened: the persisted global point never covers an uncommitted row;
// - table points move with their transaction: a transaction cut short (pause, error) moves none;
// - nothing is dispatched past the persisted exit-safe mark, which runs ahead in large steps, so that
//   after any stop, even SIGKILL, safe mode covers every event that may have been applied.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/apply/dml_session.h"
#include "engine/apply/row_change.h"
#include "engine/binlog/event.h"
#include "engine/binlog/event_decoder.h"
#include "engine/binlog/location.h"
#include "engine/checkpoint/checkpoint_tracker.h"
#include "engine/task/applied_frontier.h"
#include "engine/task/binlog_stream.h"
#include "engine/task/ddl_runner.h"
#include "engine/task/flush_coordinator.h"
#include "engine/task/online_ddl_tracker.h"
#include "engine/task/pipeline_control.h"
#include "engine/task/pipeline_live_view.h"
#include "engine/task/prepared_xa_store.h"
#include "engine/task/replay_window.h"
#include "engine/task/session_live_view.h"
#include "engine/task/session_outcome.h"
#include "engine/task/shard_ddl_locks.h"
#include "engine/task/stop_grace.h"
#include "engine/task/stop_point_check.h"
#include "engine/task/stream_reader.h"
#include "engine/task/task_setup.h"
#include "engine/task/transaction_skip.h"
#include "engine/task/transaction_starts.h"
#include "engine/task/transaction_tracker.h"
#include "engine/task/worker_feed.h"

namespace syncscope::apply {
class WorkerPool;
struct ApplyFailure;
}  // namespace syncscope::apply

namespace syncscope::schema {
class SchemaTracker;
}

namespace syncscope::task {

class RowChangeBuilder;

// An error that stops the session with a failed event (rather than a plain message).
struct SessionFailure {
    SessionOutcome outcome;
};

// A shard DDL lock this source waited in ran downstream: the session ends at a boundary, its points
// persisted, and the next one reads again from the held global point (the re-sync).
struct ShardResync {
    std::string message;
};

// Where the pipeline's events come from and what its workers write through. Unset: the task's upstream
// (a binlog dump) and downstream (a connection per worker). Tests drive the pipeline with a synthetic
// event sequence and scripted worker sessions here.
struct PipelinePorts {
    std::function<std::unique_ptr<BinlogStream>(const StreamStart&)> openStream;
    apply::DmlSessionFactory connectWorker;
    // The checkpoint store, DDL, schemas and the upstream's end (pipeline_control.h).
    std::function<std::unique_ptr<PipelineControl>(const TaskSetup&)> openControl;
};

class SyncPipeline {
public:
    SyncPipeline(const TaskSetup& setup, checkpoint::CheckpointTracker& tracker, PipelinePorts ports = {});
    ~SyncPipeline();

    SessionOutcome run(const std::optional<SkipRequest>& skip, const std::atomic<bool>& interrupt);
    void cancel();
    SessionLiveView live() const;

private:
    SessionOutcome stream(const std::atomic<bool>& interrupt);
    binlog::Location prepare();
    void openSafeModeWindow(const binlog::Location& global, const binlog::Location& exitSafe);
    void onEvent(const binlog::Event& event);
    binlog::BinlogPosition startOf(const binlog::Event& event) const;
    uint32_t timestampOf(const binlog::Event& event) const;
    void closeDanglingGroup(const binlog::Event& nextGtid);
    void followRotation(const binlog::Event& formatDescription);
    static bool carriesNothingToApply(binlog::EventType type);
    void passIdle(const binlog::Location& next);
    void onGroupOpened();
    void endTransaction(const binlog::Event& event);
    void takePoints(const HeldPointsRelease& release);
    void onQuery(const binlog::Event& event, const binlog::QueryEvent& query);
    void onXaStatement(const binlog::Event& event, const binlog::QueryEvent& query);
    void onRows(const binlog::Event& event, const binlog::RowsEvent& rows);
    void onDdl(const binlog::Event& event, const binlog::QueryEvent& query);
    // After a DDL: its own group ends and its position is persisted (true), or, inside a group (CREATE TABLE
    // ... SELECT), the group goes on to its terminator (false).
    bool ddlDone(const binlog::Event& event, bool ownGroup);
    void keepSwapBefore(OnlineDdlStep& swap, const binlog::Location& at);
    // Shard merge (shard_ddl_locks.h): a DDL of a shard table; false when the table merges with no other.
    bool onShardDdl(const binlog::Event& event, const binlog::QueryEvent& query, const binlog::Location& at,
                    const std::vector<DdlPlan>& plans);
    // A lock ran downstream or went: table points move past this source's arrivals, the hold ends, and
    // a source whose tables waited re-syncs (throws ShardResync).
    void followShardLocks();
    // shard-mode optimistic (optimistic_shard_ddl.h): runs or passes over a shard's DDL that fits every shard
    // (true), stops on a conflict, or leaves it to the pessimistic lock (false).
    bool weighOptimistic(const binlog::Event& event, const binlog::QueryEvent& query, const binlog::Location& at,
                         const ShardTable& shard, const TableName& target, const DdlPlan& plan);
    void holdGlobal();
    void lockRan(const TableName& target);
    // With shard-mode: every table the DDL changes has a persisted point at or past it (it ran before).
    bool coveredByTablePoints(const DdlPlan& plan, const binlog::Location& at) const;
    [[noreturn]] void failOnDdl(const binlog::Event& event, const binlog::QueryEvent& query, const binlog::Location& at,
                                const std::string& sql, int code, const std::string& message, bool retryable);
    // The open group's sequence (the last one's between groups): its changes carry it.
    uint64_t groupSeq() const;
    void atBoundary();
    // A barrier flush; `ddlAt` (before a DDL) puts the exit-safe point exactly at that DDL.
    void flush(FlushReason reason, const binlog::Location& ddlAt = {});
    binlog::Location locationAt(const binlog::Event& event) const;
    SafeModeView safeMode() const;
    void updateLive(const binlog::Event& event);
    void settleLiveAtEnd();
    void publishOnlineChanges();
    [[noreturn]] void failWith(const apply::ApplyFailure& failure);
    SessionOutcome failureOutcome(const std::string& message, bool retryable) const;

    const TaskSetup& setup_;
    checkpoint::CheckpointTracker& tracker_;
    PipelinePorts ports_;

    std::unique_ptr<PipelineControl> control_;  // checkpoint store, DDL, schemas
    std::unique_ptr<schema::SchemaTracker> schemas_;
    std::unique_ptr<RowChangeBuilder> rowChanges_;
    std::unique_ptr<apply::WorkerPool> workers_;
    binlog::EventDecoder decoder_;
    std::vector<binlog::Event> events_;

    StreamReader reader_{setup_.taskName};  // the binlog stream, its cut, and passing over a reconnect's repeats
    StopGrace stopGrace_{setup_.taskName, reader_};  // how a pause or stop ends the reading

    // Where the stream stands.
    std::string currentFile_;
    TransactionTracker transactionTracker_{binlog::GtidState{}};  // event groups and the GTID state after the last one
    binlog::BinlogPosition transactionStart_;                     // of the open (or last) group
    TransactionSkip skip_{setup_.taskName};                       // the DBA's skip of the failed transaction
    TransactionStarts transactionStarts_;                         // since the last flush
    // XA branches prepared and waiting for their outcome, and the rows of the branch being read.
    PreparedXaStore preparedXa_;

    std::unique_ptr<CommitFrontier> commitFrontier_;
    std::unique_ptr<FlushCoordinator> flushCoordinator_;  // when the checkpoint is written, and safe mode's window
    std::unique_ptr<ReplayWindow> replay_;                // the replay window's DDL verdicts and fitted rows
    std::unique_ptr<DdlRunner> ddl_;
    std::unique_ptr<WorkerFeed> feed_;          // the rows' dispatch to the workers, and the table points they reach
    std::unique_ptr<OnlineDdlTracker> online_;  // online-ddl: the tools' changes followed; null when off
    // Shard merge: the task's locks (null when no table merges with another), this source's tables that
    // wait in one (their rows are read again at the re-sync), and the global point held meanwhile.
    ShardDdlLocks* shards_ = nullptr;
    std::set<TableName> waitingShards_;
    bool holdingGlobal_ = false;
    binlog::Location heldLatest_;  // where the global point would be without the hold
    uint64_t shardVersion_ = 0;
    OptimisticShardDdl* optimistic_ = nullptr;  // shard-mode optimistic; null otherwise
    uint64_t optimisticVersion_ = 0;            // of the merged tables' structure this source's schemas know
    uint64_t onlineViewVersion_ = 0;            // of the changes the live view shows
    uint32_t lastEventTimestamp_ = 0;

    StopPointCheck stopPoint_{setup_.stopPoint, setup_.taskName};  // the DBA's run --until / POST /api/v1/until

    // What the status publisher reads (also from its own thread).
    PipelineLiveView live_;
};

}  // namespace syncscope::task
