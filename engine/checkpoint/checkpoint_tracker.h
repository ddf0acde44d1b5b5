// The syncer's checkpoints in memory: the global point and one point per table, beside the copies
// last persisted. It decides what a flush writes and what a resume skips, and rolls back to the
// persisted points after a pause or an error (docs/design.md invariants 1, 3 and 4).
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/binlog/location.h"
#include "engine/checkpoint/online_ddl_store.h"
#include "engine/common/table_name.h"

namespace syncscope::checkpoint {

using TableName = syncscope::TableName;  // the upstream table a point belongs to

struct TablePoint {
    TableName table;
    binlog::Location location;
};

// What one flush writes: every table point that moved since the last flush, then the global point.
struct FlushPlan {
    binlog::Location globalPoint;
    binlog::Location exitSafePoint;
    std::vector<TablePoint> tablePoints;
    // The online schema changes' rows that changed since the last flush (online_ddl_store.h), written
    // in the same transaction.
    std::vector<OnlineDdlWrite> onlineDdl;
};

// A copy of every point for the status snapshot.
struct TrackerView {
    binlog::Location globalInMemory;
    binlog::Location globalPersisted;
    binlog::Location exitSafePersisted;
    struct Table {
        TableName table;
        std::optional<binlog::Location> inMemory;
        std::optional<binlog::Location> persisted;
    };
    std::vector<Table> tables;
};

class CheckpointTracker {
public:
    // Start from what the checkpoint table holds (or the task's start point with no table points).
    void reset(const binlog::Location& persistedGlobal, const std::vector<TablePoint>& persistedTables,
               const binlog::Location& persistedExitSafe);

    // A complete transaction (or a DDL) ending at `location` was dispatched.
    void advanceGlobal(const binlog::Location& location);
    // A rows event of `table` ending at `location` was dispatched.
    void advanceTable(const TableName& table, const binlog::Location& location);
    // The table's point moves to `location` unless it already stands there or later.
    void raiseTable(const TableName& table, const binlog::Location& location);

    // An event of `table` at `location` is already covered by the table's persisted point: a resume
    // skips it. Incomparable locations are not covered (the event is applied; safe mode makes that safe).
    bool coveredByTablePoint(const TableName& table, const binlog::Location& location) const;

    // The flush that would persist the points in memory; `exitSafePoint` is the high-water mark.
    FlushPlan planFlush(const binlog::Location& exitSafePoint) const;
    // The plan was written in one downstream transaction.
    void markPersisted(const FlushPlan& plan);
    // Only the exit-safe high-water mark was written.
    void markExitSafePersisted(const binlog::Location& exitSafePoint);

    // Forget what is in memory and stand on the persisted points again (pause, error, resume).
    void rollbackToPersisted();

    binlog::Location globalInMemory() const;
    binlog::Location globalPersisted() const;
    binlog::Location exitSafePersisted() const;
    TrackerView view() const;

private:
    mutable std::mutex mutex_;
    binlog::Location globalInMemory_;
    binlog::Location globalPersisted_;
    binlog::Location exitSafePersisted_;
    std::map<TableName, binlog::Location> tablesInMemory_;
    std::map<TableName, binlog::Location> tablesPersisted_;
};

}  // namespace syncscope::checkpoint
