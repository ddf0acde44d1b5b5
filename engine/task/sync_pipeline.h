// The syncer's reader side for one session: binlog stream -> decoder -> filters -> workers, with the
// transaction bookkeeping that decides what a checkpoint flush may persist.
//
// The rules it keeps (DESIGN.md):
// - a flush happens only at a transaction boundary, after a barrier through every worker, and only
//   when no worker error happened: the persisted global point never covers an uncommitted row;
// - table points move with their transaction: a transaction cut short (pause, error) moves none;
// - nothing is dispatched past the persisted exit-safe mark, which runs ahead in large steps, so that
//   after any stop, even SIGKILL, safe mode covers every event that may have been applied.
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/apply/row_change.h"
#include "engine/binlog/event.h"
#include "engine/binlog/event_decoder.h"
#include "engine/binlog/location.h"
#include "engine/checkpoint/checkpoint_tracker.h"
#include "engine/task/applied_frontier.h"
#include "engine/task/binlog_stream.h"
#include "engine/task/sync_session.h"
#include "engine/task/task_setup.h"

namespace sql {
class Connection;
}

namespace syncscope::apply {
class WorkerPool;
struct ApplyFailure;
}  // namespace syncscope::apply

namespace syncscope::schema {
class SchemaTracker;
}

namespace syncscope::checkpoint {
class CheckpointTable;
}

namespace syncscope::task {

class RowChangeBuilder;

// An error that stops the session with a failed event (rather than a plain message).
struct SessionFailure {
    SessionOutcome outcome;
};

class SyncPipeline {
public:
    SyncPipeline(const TaskSetup& setup, checkpoint::CheckpointTracker& tracker);
    ~SyncPipeline();

    SessionOutcome run(const std::optional<SkipRequest>& skip, const std::atomic<bool>& interrupt);
    void cancel();
    SessionLiveView live() const;

private:
    SessionOutcome stream(const std::atomic<bool>& interrupt);
    binlog::Location prepare();
    void handle(const binlog::Event& event);
    void beginTransaction(const binlog::Event& event);
    void endTransaction(const binlog::Event& event);
    void onQuery(const binlog::Event& event, const binlog::QueryEvent& query);
    void onRows(const binlog::Event& event, const binlog::RowsEvent& rows);
    void onDdl(const binlog::Event& event, const binlog::QueryEvent& query);
    void maybeFlush();
    void completePendingFlush();
    void flush(const char* why);
    void persist(checkpoint::FlushPlan plan, const char* why, uint64_t transactionSeq);
    void raiseExitSafeMarkPast(const binlog::BinlogPosition& position);
    void checkWorkers();
    binlog::Location locationAt(const binlog::Event& event) const;
    void updateLive(const binlog::Event& event);
    void refreshAppliedLocked() const;
    void settleLiveAtEnd();
    void copyCounters();
    [[noreturn]] void failWith(const apply::ApplyFailure& failure);
    SessionOutcome failureOutcome(const std::string& message, bool retryable) const;

    const TaskSetup& setup_;
    checkpoint::CheckpointTracker& tracker_;

    std::unique_ptr<sql::Connection> control_;  // checkpoint table and DDL
    std::unique_ptr<checkpoint::CheckpointTable> checkpointTable_;
    std::unique_ptr<schema::SchemaTracker> schemas_;
    std::unique_ptr<RowChangeBuilder> rowChanges_;
    std::unique_ptr<apply::WorkerPool> workers_;
    binlog::EventDecoder decoder_;
    std::vector<binlog::Event> events_;
    std::vector<apply::RowChange> changes_;

    mutable std::mutex streamMutex_;  // guards stream_ against cancel() from another thread
    std::unique_ptr<BinlogStream> stream_;
    std::atomic<bool> cancelled_{false};

    // Where the stream stands.
    std::string currentFile_;
    binlog::GtidState gtids_;  // after the last complete transaction
    bool inTransaction_ = false;
    binlog::BinlogPosition transactionStart_;
    std::optional<binlog::MariaDbGtid> transactionGtid_;
    std::optional<std::pair<std::string, uint64_t>> transactionMySqlGtid_;
    uint64_t transactionSeq_ = 0;
    bool skippingTransaction_ = false;
    std::optional<SkipRequest> skip_;
    std::map<checkpoint::TableName, binlog::Location> transactionTablePoints_;
    std::map<uint64_t, binlog::BinlogPosition> transactionStarts_;  // since the last flush

    binlog::Location safeModeUntil_;  // the exit-safe mark persisted when the session started
    bool inSafeMode_ = false;
    binlog::Location lastDispatched_;  // the last rows event or DDL handed to the workers
    binlog::Location exitSafeMark_;
    std::chrono::steady_clock::time_point lastFlush_;
    // An interval flush planned at a transaction boundary, written once the workers have committed every
    // change up to `lastSequence`.
    struct PendingFlush {
        checkpoint::FlushPlan plan;
        uint64_t lastSequence = 0;
        uint64_t transactionSeq = 0;
    };
    std::optional<PendingFlush> pendingFlush_;
    uint32_t lastEventTimestamp_ = 0;
    uint32_t transactionTimestamp_ = 0;  // upstream time of the open transaction's first event
    std::chrono::steady_clock::time_point lastCountersUpdate_{};

    // The live view: written by the pipeline's thread, refreshed from the workers' progress also by
    // the publisher's thread (live()).
    mutable std::mutex liveMutex_;
    mutable SessionLiveView live_;
    mutable AppliedFrontier frontier_;                   // dispatched transactions not yet known to be committed
    uint32_t openTransactionTimestamp_ = 0;              // 0 when no transaction is open
    std::atomic<apply::WorkerPool*> livePool_{nullptr};  // workers_, once made (lives as long as this)
};

}  // namespace syncscope::task
