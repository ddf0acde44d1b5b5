// DM's shard merge in pessimistic mode (dm/syncer/sharding_group.go, dm/pkg/shardddl/pessimism): the shard
// tables of every source that route into one downstream table form a group. A DDL read on one shard table is
// a lock on the group: that table's later rows wait (they are read again once the lock resolves), while the
// group's other tables go on, until every shard table of the group has read the same DDL. Then the DDL runs
// downstream once, by the pipeline whose arrival completed the lock, and every source whose tables waited
// reads its binary log again from its held global point (the re-sync), their table points skipping what was
// applied. One object per task, shared by its sources' pipelines (each on its own thread).
//
// What survives a kill: a source's global point is held before its first waiting DDL, so after a kill every
// arrival is read again. A lock that ran downstream is written to the ledger first (shard_lock_ledger.h)
// with every arrival's position, so that an arrival read again after it ran is passed over, never run twice.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/binlog/location.h"
#include "engine/common/table_name.h"
#include "engine/task/status_snapshot.h"
#include "engine/task/task_control.h"

namespace syncscope::task {

// One shard table: a source's upstream table.
struct ShardTable {
    std::string sourceId;
    TableName table;

    std::string text() const { return sourceId + ":" + table.text(); }
    bool operator==(const ShardTable&) const = default;
    auto operator<=>(const ShardTable&) const = default;
};

// The shard tables that route into one downstream table (two or more).
struct ShardGroup {
    TableName target;
    std::vector<ShardTable> members;
};

// A shard table that has read the lock's DDL.
struct ShardArrival {
    ShardTable shard;
    std::string position;  // the DDL's end (Location::toString)
    std::chrono::system_clock::time_point since;
    binlog::Location at;  // the DDL's end, as read by this process (empty when only kept in the ledger)
};

// A lock that ran downstream, as kept in the ledger until every arrival has been passed.
struct ExecutedShardLock {
    TableName target;
    std::vector<std::string> ddls;
    std::vector<ShardArrival> arrivals;
};

// A lock for the status: waiting, or ran downstream and waiting for its sources' re-syncs.
struct ShardLockView {
    TableName target;
    std::vector<std::string> ddls;
    std::vector<ShardArrival> arrived;
    std::vector<ShardTable> waitingFor;
    std::chrono::system_clock::time_point since;
    bool executed = false;
};

// Where locks are kept beside the checkpoint (the downstream's `<meta>.<task>_syncscope_shard_locks`); in
// memory for tests. A lock that ran is the truth a restart reads; a waiting one is kept for the DBA's eyes
// only (`syncscope-cli status` without an engine): after a restart it is read again from the binary log.
class ShardLockLedger {
public:
    virtual ~ShardLockLedger() = default;
    virtual std::vector<ExecutedShardLock> load() = 0;
    // Replaces the waiting lock of the merged table, if any.
    virtual void record(const ExecutedShardLock& lock) = 0;
    virtual void remove(const ExecutedShardLock& lock) = 0;
    virtual void keepWaiting(const ShardLockView& lock) = 0;
};

class ShardDdlLocks {
public:
    // `ledger` may be null (nothing survives a kill but the held global points).
    ShardDdlLocks(std::string taskName, std::vector<ShardGroup> groups, std::shared_ptr<ShardLockLedger> ledger);

    // The downstream table `table` of `sourceId` merges into with other shard tables; nullopt when none.
    std::optional<TableName> targetOf(const std::string& sourceId, const TableName& table) const;

    struct Verdict {
        enum class Kind {
            Wait,      // the table's later rows wait; the source's global point holds
            Execute,   // this arrival completed the lock: run the DDLs downstream, then executed()
            Done,      // the DDLs already ran downstream (read again after a kill): pass them over
            Conflict,  // the DDLs differ from the lock's: `reason` names both
        };
        Kind kind = Kind::Wait;
        std::string reason;
    };
    // `shard` read `ddls` (as they run downstream) ending at `at`. Reading it again is the same arrival.
    Verdict arrive(const ShardTable& shard, const TableName& target, const std::vector<std::string>& ddls,
                   const binlog::Location& at);
    // The Execute arrival's DDLs ran downstream: kept in the ledger, and the waiting sources re-sync.
    void executed(const TableName& target);
    // The source of `shard` has persisted a table point past the arrival at `position` (it ran, or was
    // found covered by the table's point when read again): once every arrival is passed the lock goes.
    void passed(const ShardTable& shard, const std::string& position);

    // The arrivals of `sourceId` in locks that ran downstream, read by this process and not passed yet: each
    // table's point moves to its DDL's end, and the tables that waited are read again. (Arrivals kept only
    // in the ledger are handed out once read again.)
    std::vector<ShardArrival> executedArrivalsOf(const std::string& sourceId) const;
    // The DBA's unlock (DM's shard-ddl-lock unlock) of the waiting lock on `target`: what it would do
    // (`preview`), or it is done: the source of the first arrival runs the DDLs at its next boundary, and the
    // shard tables waited for pass them over when they read them. Audited before it takes effect. Refused,
    // changing nothing, when no lock on `target` waits.
    // `target` as "schema.table".
    CommandResult unlock(const std::string& target, bool preview);
    // The unlocked lock whose DDLs `sourceId` must run now, if any (until it has run: executed()).
    struct Forced {
        TableName target;
        std::vector<std::string> ddls;
        binlog::Location at;  // the source's arrival
    };
    std::optional<Forced> takeForced(const std::string& sourceId);
    void setAuditLog(std::string path) { auditPath_ = std::move(path); }

    // Changes whenever a lock runs or goes: pipelines look again at their holds then.
    uint64_t version() const { return version_.load(std::memory_order_acquire); }

    std::vector<ShardLockView> view() const;

private:
    struct Lock {
        TableName target;
        std::vector<std::string> ddls;
        std::vector<ShardArrival> arrivals;
        std::vector<bool> passedBy;  // per arrival
        std::chrono::system_clock::time_point since;
        bool executed = false;
        bool forced = false;  // unlocked by the DBA: runs without the shard tables waited for
    };
    const ShardGroup* groupOf(const TableName& target) const;
    Lock* lockOf(const TableName& target);
    const Lock* lockOf(const TableName& target) const;
    void forgetIfAllPassed(Lock& lock);
    std::vector<ShardTable> missing(const Lock& lock) const;

    std::string taskName_;
    std::vector<ShardGroup> groups_;
    std::shared_ptr<ShardLockLedger> ledger_;
    mutable std::mutex mutex_;
    std::vector<Lock> locks_;
    std::string auditPath_;
    std::atomic<uint64_t> version_{1};
};

// The locks as the status shows them.
std::vector<ShardLockStatus> shardLockStatus(const std::vector<ShardLockView>& locks);

// The lock that holds the global point of `sourceId`, so that its tables ahead of it are expected: a waiting one
// in which a shard table of the source read the DDL, or one that ran while the source still re-syncs (listed as
// waited for); null when none. An empty `sourceId` (a task with one source and no source-id) matches any.
const ShardLockStatus* lockHoldingSource(const std::vector<ShardLockStatus>& locks, const std::string& sourceId);

// DDL text as compared between shards: whitespace runs as one space, letters folded outside quotes.
std::string comparableDdl(const std::string& sql);

}  // namespace syncscope::task
