// The ledger of a task's shard DDL locks (engine/task/shard_ddl_locks.h), kept in the downstream beside the
// checkpoint: `<meta-schema>`.`<task>_syncscope_shard_locks`, one row per lock (the merged table, the first
// arrival; "" for the waiting lock), its state, the DDLs, every arrival's source, table and position and the
// shard tables waited for, as JSON. A lock that ran is written right after its DDLs ran and removed once every
// arrival has been passed, so that after a kill an arrival read again is passed over rather than run twice. A
// waiting lock is written at each arrival for `syncscope-cli status`; a restart reads it again from the
// binary log, not from here. With shard-mode optimistic, a column one shard table added to the merged table is a
// `column` row (first_arrival "column:<name>", the shard tables that added it as arrivals, the first the one that
// added it to the merged table) until it is dropped again.
#pragma once

#include <string>
#include <vector>

#include "engine/common/server_settings.h"
#include "engine/task/optimistic_shard_ddl.h"
#include "engine/task/shard_ddl_locks.h"

namespace syncscope::multisource {

class ShardLockTable final : public task::ShardLockLedger, public task::ShardColumnLedger {
public:
    static constexpr const char* kTableSuffix = "_syncscope_shard_locks";

    ShardLockTable(ServerSettings downstream, std::string metaSchema, std::string taskName);

    // A missing table has none. Throws Error naming the table for any other failure, or a row that cannot
    // be read (a lock that ran would otherwise run again).
    std::vector<task::ExecutedShardLock> load() override;
    void record(const task::ExecutedShardLock& lock) override;
    void remove(const task::ExecutedShardLock& lock) override;
    void keepWaiting(const task::ShardLockView& lock) override;
    std::vector<task::AddedShardColumn> loadColumns() override;
    void keepColumn(const task::AddedShardColumn& column) override;
    void removeColumn(const TableName& target, const std::string& column) override;

    // Every kept lock, waiting or ran, for the status without an engine (arrivals and waited-for tables only as
    // kept). A missing table has none; throws Error naming the table otherwise.
    std::vector<task::ShardLockStatus> loadForStatus();

    std::string describe() const;
    static std::string arrivalsJson(const std::vector<task::ShardArrival>& arrivals);
    static std::vector<task::ShardArrival> arrivalsFromJson(const std::string& json);

private:
    static std::string firstArrival(const task::ExecutedShardLock& lock);
    void deleteRow(const TableName& target, const std::string& first);
    void write(const std::string& state, const TableName& target, const std::string& first,
               const std::vector<std::string>& ddls, const std::vector<task::ShardArrival>& arrivals,
               const std::vector<task::ShardTable>& waitingFor);

    ServerSettings downstream_;
    std::string metaSchema_;
    std::string qualifiedName_;
};

}  // namespace syncscope::multisource
