// DM's shard merge in optimistic mode (dm/pkg/shardddl/optimism): a shard table's DDL is weighed against the
// merged table as it is downstream, clause by clause, and nothing waits when the change fits every shard:
// - a column added with a default (or nullable) is added at once; the other shards' rows, which lack it, still
//   apply (they name their own columns, so the merged table gives them its default); the same column added
//   later by another shard with the same type is passed over;
// - an index added or dropped, a column widened: run at once; the same change read later is passed over, and
//   a shard narrowing a column the others write wider is passed over too (the merged table keeps the wider);
// - conflicts stop the source, naming both sides: a column added with another type than the merged table's,
//   a type no wider or narrower than the merged one, a column dropped while other shard tables still write it;
// - anything else (a rename, a NOT NULL column without a default, a unique index, ...) waits for every shard
//   through the pessimistic lock (shard_ddl_locks.h), or, with strict-optimistic-shard-mode, stops.
// One object per task, shared by its sources' pipelines; a pipeline weighs, runs and settles a DDL under
// turn(), so that two shards adding the same column never both add it. The columns one shard added and
// others not yet (what a DROP COLUMN is judged by, and what the status shows) are kept in the ledger.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/common/table_name.h"
#include "engine/task/shard_ddl_locks.h"

namespace syncscope::task {

// A column as the server defines it (information_schema.COLUMNS, or a probe of a DDL's column definition).
struct MergedColumn {
    std::string type;  // COLUMN_TYPE: "int(11)", "varchar(40)"
    bool nullable = true;
    bool hasDefault = false;
};

// The merged table downstream, as far as optimistic mode weighs a DDL against it.
struct MergedTable {
    struct Index {
        std::string name;
        std::vector<std::string> columns;
        bool unique = false;
    };
    std::map<std::string, MergedColumn> columns;  // by lower-case name
    std::vector<Index> indexes;
};

// A column one shard table added to the merged table, and the shard tables that have added it since.
struct AddedShardColumn {
    TableName target;
    std::string column;
    ShardTable addedBy;
    std::set<ShardTable> reachedBy;
    std::vector<ShardTable> awaited;  // the group's other shard tables that still lack it
};

// Where the added columns are kept beside the checkpoint (the shard lock table's `column` rows), so that a restart
// still knows which shard tables lack a column one shard added; in memory for tests.
class ShardColumnLedger {
public:
    virtual ~ShardColumnLedger() = default;
    virtual std::vector<AddedShardColumn> loadColumns() = 0;
    virtual void keepColumn(const AddedShardColumn& column) = 0;
    virtual void removeColumn(const TableName& target, const std::string& column) = 0;
};

// For the status: each pending column, the shard tables named without positions.
std::vector<ShardColumnStatus> shardColumnStatus(const std::vector<AddedShardColumn>& columns);

class OptimisticShardDdl {
public:
    // `ledger` may be null (the added columns then live in memory only); its columns are read here (throws
    // syncscope::Error when they cannot be).
    OptimisticShardDdl(std::vector<ShardGroup> groups, bool strict, std::shared_ptr<ShardColumnLedger> ledger = {});

    struct Verdict {
        enum class Kind {
            Run,         // run `sql` downstream now (the clauses still to run), then settle()
            Pass,        // the merged table has it already (or keeps a wider form): settle(), nothing runs
            Coordinate,  // wait for every shard through the pessimistic lock (`reason` says why)
            Conflict,    // stop: `reason` names both sides
        };
        Kind kind = Kind::Coordinate;
        std::string sql;
        std::string reason;
        // What settle() records.
        std::vector<std::string> added;    // columns this shard adds to the merged table
        std::vector<std::string> reached;  // columns another shard added, now added by this one
        std::vector<std::string> dropped;  // columns dropped from the merged table
    };

    // Reads the definition a DDL gives one column (probed on the server); nullopt when it cannot be read.
    using ColumnProbe = std::function<std::optional<MergedColumn>(const std::string& definition)>;

    // Held while a DDL of the task's merged tables is weighed, run and settled.
    std::unique_lock<std::mutex> turn() { return std::unique_lock(turnMutex_); }

    // `shard` read `sql` (routed: it names the merged table `target`), with `merged` as the table is now.
    Verdict weigh(const ShardTable& shard, const TableName& target, const std::string& sql, const MergedTable& merged,
                  const ColumnProbe& probe) const;
    // A Run verdict ran downstream, or a Pass was passed over: the added columns are kept (in the ledger first;
    // throws syncscope::Error when it cannot be written, which a retry does again).
    void settle(const ShardTable& shard, const TableName& target, const Verdict& verdict);

    bool strict() const { return strict_; }
    // Changes whenever a DDL changed a merged table: every source reads its tables' structure again.
    uint64_t version() const { return version_.load(std::memory_order_acquire); }
    // The columns added by some shard tables and awaited from others, for the status.
    std::vector<AddedShardColumn> pendingColumns() const;

private:
    struct ClauseVerdict;
    const ShardGroup* groupOf(const TableName& target) const;
    std::vector<ShardTable> stillWriting(const ShardTable& shard, const TableName& target,
                                         const std::string& column) const;

    std::vector<ShardGroup> groups_;
    bool strict_;
    std::shared_ptr<ShardColumnLedger> ledger_;
    std::mutex turnMutex_;
    mutable std::mutex mutex_;  // the added columns (read by the status)
    std::map<std::pair<TableName, std::string>, AddedShardColumn> added_;
    std::atomic<uint64_t> version_{0};
};

}  // namespace syncscope::task
