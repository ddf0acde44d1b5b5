// One source's persisted checkpoint beside its upstream's current position, for `status` and for
// `checkpoints TASK.yaml --source ...`: the source's rows of the task's checkpoint table, checked against
// that source's own upstream (a task with several sources has one upstream per source), and how far its
// global point is behind. Read-only on both servers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/checkpoint/online_ddl_store.h"
#include "engine/inspect/dm_sharding_meta.h"
#include "engine/inspect/inspection_report.h"
#include "engine/task/optimistic_shard_ddl.h"
#include "engine/task/status_snapshot.h"
#include "engine/task/task_setup.h"

namespace syncscope::cli {

// How far a persisted global point is behind the upstream's current position.
struct Distance {
    std::optional<int64_t> bytes;  // on the upstream's axis; nullopt when a file is not on it
    std::optional<int64_t> files;  // difference of the file numbers

    bool synced() const { return bytes && *bytes == 0 && files && *files == 0; }
    std::string text() const;  // "120 bytes, 0 files behind the upstream"
};

struct SourceCheckpoint {
    task::TaskSetup setup;
    std::string sourceFile;
    inspect::InspectionReport inspection;            // the task's checkpoint table, this source's upstream
    std::string upstreamError;                       // why the upstream could not be read; empty when it was
    std::optional<inspect::InspectedSource> source;  // this source's rows; nullopt when it has none
    std::string checkpointProblem;                   // why the checkpoint table could not be read
    Distance distance;
    // The online schema changes recorded for this source (`<task>_onlineddl`, DM's table): DDLs waiting for a
    // tool's swap. Read whether or not the task sets online-ddl (a DM deployment's are shown too).
    std::vector<checkpoint::OnlineDdlEntry> onlineChanges;
    std::string onlineProblem;  // why that table could not be read
    // The shard DDL locks kept beside the checkpoint (`<task>_syncscope_shard_locks`) that name this source: waiting
    // (as of the last arrival) or ran downstream and not yet passed by every shard table.
    std::vector<task::ShardLockStatus> shardLocks;
    // shard-mode optimistic: the columns one shard table added to a merged table, kept beside the checkpoint with
    // the shard tables that have added them since (the task's, whichever source; the others lack them).
    std::vector<task::AddedShardColumn> shardColumns;
    std::string shardProblem;  // why that table could not be read
    // A DM deployment's own sharding state for this source (`<task>_syncer_sharding_meta`): an unresolved group
    // holds the source's global point, and its shard tables may be ahead of it by design.
    std::vector<inspect::DmShardingGroup> dmShardingGroups;

    size_t anomalyCount() const { return source ? source->anomalyCount() : 0; }
    std::string checkpointTable() const;  // `meta`.`task_syncer_checkpoint`
};

// The task file and its --source files as one setup per source: one file is the one-source task (the
// task's instance with that file's source-id), several are engine/multisource's plan (every instance
// needs its file). Throws ConfigError / multisource::MultiSourceError naming the file.
struct TaskSources {
    std::vector<task::TaskSetup> setups;
    std::vector<std::string> sourceFiles;  // the file each setup's source came from
    std::vector<std::string> warnings;
};
TaskSources loadTaskSources(const std::string& taskFile, const std::vector<std::string>& sourceFiles);

// Reads the source's checkpoint rows and its upstream (an upstream out of reach is kept in
// upstreamError; the checkpoint is still read). Throws when the downstream cannot be read.
SourceCheckpoint readSourceCheckpoint(const task::TaskSetup& setup, const std::string& sourceFile);

}  // namespace syncscope::cli
