// The engine's status as one immutable value, published atomically at least 10 times a second and
// pulled by the GUI, the CLI and the HTTP API. Plain data: positions are given as text fields and as
// numbers on the upstream's byte axis so that every front end shows them the same way.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/apply/commit_slots.h"
#include "engine/common/table_name.h"
#include "engine/load/load_progress.h"
#include "engine/task/stream_connection_view.h"

namespace syncscope::task {

enum class Stage { New, Running, Paused, Stopped, Error };

inline const char* stageName(Stage stage) {
    switch (stage) {
        case Stage::New:
            return "New";
        case Stage::Running:
            return "Running";
        case Stage::Paused:
            return "Paused";
        case Stage::Stopped:
            return "Stopped";
        case Stage::Error:
            return "Error";
    }
    return "Unknown";
}

using Clock = std::chrono::system_clock;

// One point of the stream: binlog file and end position of an event, the GTID set after it.
struct PointView {
    std::string file;  // empty when unknown
    uint64_t pos = 0;
    std::string gtid;  // GTID set text, empty when the task does not use GTIDs
    // Bytes from the start of the oldest binlog file the upstream still has; nullopt when the file is
    // not among the upstream's files (purged, or the upstream is unreachable).
    std::optional<uint64_t> axis;

    bool known() const { return !file.empty(); }
    std::string text() const { return known() ? file + ":" + std::to_string(pos) : std::string("-"); }
};

// How far behind the task is in bytes and when it will have caught up (CatchUpEstimate).
struct CatchUpView {
    uint64_t behindBytes = 0;           // upstream end minus applied point, on the axis
    double appliedBytesPerSecond = 0;   // binlog bytes the applied point moved per second
    double upstreamBytesPerSecond = 0;  // binlog bytes the upstream wrote per second
    // Seconds until caught up at the current rates: 0 when caught up, nullopt when unknown (too little
    // history) or when the distance does not shrink (the upstream writes faster than the task applies).
    std::optional<double> etaSeconds;
};

struct TablePointView {
    std::string sourceId;  // whose table point it is (a task with several sources lists every source's)
    std::string schema;
    std::string table;
    PointView inMemory;
    PointView persisted;
    // Where the persisted table point runs ahead of the persisted global point: a resume would skip
    // this table's events between the two (docs/design.md invariant 3).
    bool aheadOfGlobal = false;
    int64_t bytesFromGlobal = 0;    // persisted table point minus persisted global point, on the axis
    uint64_t eventsFromGlobal = 0;  // events of this table between them, where known
    uint64_t rowsApplied = 0;
    // UPDATEs and DELETEs applied outside safe mode that found no downstream row: drift.
    uint64_t rowsUnmatched = 0;
    std::optional<Clock::time_point> lastChange;
};

// A running online schema change (online-ddl): the tool's shadow table, the DDLs recorded on it (run on the
// real table at the swap), and the rows of its copy read in this session.
struct OnlineChangeView {
    TableName real;
    TableName shadow;
    std::string tool;               // "pt-online-schema-change", "gh-ost", "a custom tool"
    std::vector<std::string> ddls;  // recorded so far, in order
    uint64_t rowsCopied = 0;        // the shadow's row changes read in this session
    std::string since;              // where its shadow was created or first altered ("" when read from the store)

    bool operator==(const OnlineChangeView&) const = default;
};

// A shard DDL lock (shard-mode, engine/task/shard_ddl_locks.h): waiting for shard tables to read its DDLs,
// or ran downstream and waiting for the sources whose tables waited to read again (their re-sync).
struct ShardLockStatus {
    struct Shard {
        std::string sourceId;
        TableName table;
        std::string position;  // for an arrival: where it read the DDLs ("" for a table waited for)
        int64_t since = 0;     // for an arrival: Unix seconds
        bool operator==(const Shard&) const = default;
    };
    TableName target;
    std::vector<std::string> ddls;
    std::vector<Shard> arrived;
    std::vector<Shard> waitingFor;
    int64_t since = 0;  // Unix seconds: the first arrival
    bool ranDownstream = false;

    bool operator==(const ShardLockStatus&) const = default;
};

// shard-mode optimistic: a column one shard table added to the merged table, and the shard tables that have not
// added it yet (their rows take the merged table's default for it meanwhile).
struct ShardColumnStatus {
    TableName target;
    std::string column;
    ShardLockStatus::Shard addedBy;  // no position or since
    std::vector<ShardLockStatus::Shard> awaited;

    bool operator==(const ShardColumnStatus&) const = default;
};

struct RowImageView {
    std::vector<std::optional<std::string>> values;  // canonical text, nullopt for NULL
};

// The event the task stopped on, in full.
struct FailedEvent {
    PointView position;
    std::string schema;
    std::string table;
    std::string operation;  // insert, update, delete, ddl
    std::vector<std::string> columns;
    std::vector<RowImageView> before;  // one per row of the failed change
    std::vector<RowImageView> after;
    std::string sql;
    int errorCode = 0;
    std::string errorMessage;
    std::string errorClass;  // "retryable" or "needs the DBA"
    std::string hint;        // e.g. the DDL that would fix a missing column
    // False when the failing row could not be told apart from the rest of its batch (the error came
    // at COMMIT, or did not repeat row by row): a skip would guess, so it is refused.
    bool rowIdentified = true;
};

struct BinlogFileSize {
    std::string name;
    uint64_t size = 0;
};

struct StatusSnapshot {
    uint64_t sequence = 0;
    Clock::time_point takenAt{};
    std::string taskName;
    std::string sourceId;
    Stage stage = Stage::New;
    std::string stageReason;  // why the stage is what it is (paused by the DBA, error class, ...)
    std::string stopPoint;    // where the task will pause by itself ("the stop point ..."), "" when nowhere

    PointView upstream;                         // the upstream's current position (SHOW MASTER STATUS)
    PointView read;                             // last event read
    PointView applied;                          // last event committed downstream
    PointView globalInMemory;                   // global checkpoint in memory
    PointView globalPersisted;                  // global checkpoint in the checkpoint table
    PointView exitSafe;                         // safe mode stays on until the stream passes this point
    std::vector<BinlogFileSize> upstreamFiles;  // SHOW BINARY LOGS: the axis of the ruler
    std::vector<TablePointView> tables;
    std::vector<OnlineChangeView> onlineChanges;  // online-ddl: the tools' changes being followed
    std::vector<ShardLockStatus> shardLocks;      // shard-mode: the task's shard DDL locks (every source's)
    std::vector<ShardColumnStatus> shardColumns;  // shard-mode optimistic: columns awaited from some shard tables

    uint64_t eventsRead = 0;
    uint64_t rowsApplied = 0;
    double recentRowsPerSecond = 0;
    double totalRowsPerSecond = 0;
    double lagSeconds = 0;  // from the oldest unapplied event; 0 when idle
    CatchUpView catchUp;
    uint64_t readQueueDepth = 0;
    std::vector<uint64_t> workerQueueDepths;
    uint64_t workerQueueBytes = 0;            // bytes held by the worker queues (bounded: WorkerPoolSettings)
    apply::ConcurrencyView applyConcurrency;  // downstream transactions at once: busy, allowed, ceiling, why
    bool safeMode = false;
    std::string safeModeReason;  // why safe mode is on ("" when off)
    PointView safeModeUntil;     // the end of the replay window when that is the reason
    std::optional<Clock::time_point> lastFlush;
    double lastFlushMilliseconds = 0;
    StreamConnectionView stream;  // the binlog connection: reading, or reconnecting in place (attempt, error)

    std::optional<FailedEvent> failedEvent;
    std::string lastError;
    // The global point the last resume-from replaced (resume-from it again to undo); empty when none.
    PointView globalBeforeResumeFrom;

    // task-mode all/full: the snapshot load's progress and DM's unit (Dump, Load, Sync); none for
    // task-mode incremental.
    std::optional<load::LoadProgressView> load;
};

}  // namespace syncscope::task
