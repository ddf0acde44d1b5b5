// DM's shard merge: which upstream tables of the task's sources route into one downstream table, found from
// the tables each upstream has now, through each source's block-allow list and routes (a route rule that
// merges, or the same schema and table on two sources with no route). With shard-mode pessimistic they
// become the groups of the task's shard DDL locks (engine/task/shard_ddl_locks.h); without shard-mode a
// task whose sources would write one downstream table is refused at start, naming the table and the sources.
#pragma once

#include <string>
#include <vector>

#include "engine/common/table_name.h"
#include "engine/task/shard_ddl_locks.h"
#include "engine/task/task_setup.h"

namespace syncscope::multisource {

// One upstream table of one source and where its rows go downstream.
struct RoutedTable {
    TableName upstream;
    TableName downstream;
};

struct SourceTables {
    std::string sourceId;
    std::vector<RoutedTable> tables;
};

// The tables `setup`'s filters replicate among `upstreamTables`, each with its downstream table.
SourceTables routedTables(const task::TaskSetup& setup, const std::vector<TableName>& upstreamTables);

// "" when no downstream table is written by two sources; else one line per such table naming it and each
// source with its upstream table. Names compare as the task's case-sensitive setting says.
std::string sharedDownstreamTables(const std::vector<SourceTables>& sources, bool caseSensitive);

// The base tables of the setup's upstream (system schemas left out). Throws Error naming the server.
std::vector<TableName> upstreamTables(const task::TaskSetup& setup);

// Why the task is refused: names each shared downstream table and the sources that would write it.
class ShardMergeRefused : public Error {
public:
    using Error::Error;
};

// The downstream tables two or more upstream tables route into (of one source or several), with them.
std::vector<task::ShardGroup> shardGroups(const std::vector<SourceTables>& sources, bool caseSensitive);

// Reads every source's upstream. Without `shardMode`, throws ShardMergeRefused when two sources share a
// downstream table; with "pessimistic", gives every subtask the task's shard DDL locks (the ledger of the
// locks that ran kept beside the checkpoint; the DBA's unlocks audited in the first setup's audit log, so set
// it first); with "optimistic", the locks and the optimistic weighing of DDLs (optimistic_shard_ddl.h), which
// stops at what does not fit when `strictOptimistic`.
void planShardMerge(std::vector<task::TaskSetup>& subtasks, bool caseSensitive, const std::string& shardMode,
                    bool strictOptimistic = false);

}  // namespace syncscope::multisource
