// Everything one task's syncer needs, resolved from the DM task and source files: servers, the start
// point, the syncer settings and the compiled filters. Built by makeTaskSetup (task_setup_builder.h).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "engine/binlog/location.h"
#include "engine/common/server_settings.h"
#include "engine/config/task_config.h"
#include "engine/filter/online_ddl_rules.h"
#include "engine/task/stop_point.h"

namespace syncscope::task {

class ShardDdlLocks;
class OptimisticShardDdl;

struct TaskSetup {
    static constexpr int kDefaultHeartbeatSeconds = 1;
    // The exit-safe high-water mark runs this far ahead of what is dispatched, so that it is written
    // rarely (docs/design.md invariant 4).
    static constexpr uint64_t kDefaultExitSafeStepBytes = 64ULL * 1024 * 1024;
    static constexpr size_t kDefaultLoadThreads = 4;           // DM's mydumper-thread default
    static constexpr uint64_t kDefaultLoadChunkRows = 100000;  // rows per chunk of the snapshot load

    std::string taskName;
    std::string metaSchema = "dm_meta";
    std::string sourceId;
    std::string taskFile;  // for messages
    ServerSettings upstream;
    ServerSettings downstream;
    std::map<std::string, std::string> downstreamSession;  // session variables for the apply connections
    bool enableGtid = false;
    std::string flavor = "mariadb";

    // The task's `meta`: where to start when the checkpoint table has no global row.
    std::string metaBinlogName;
    uint64_t metaBinlogPos = 0;
    std::string metaBinlogGtid;

    config::SyncerSettings syncer;  // DM syncer settings (task_config.h)
    std::shared_ptr<const filter::BlockAllowList> blockAllow;
    std::shared_ptr<const filter::EventFilter> eventFilter;
    std::shared_ptr<const filter::TableRouter> router;
    // online-ddl: true; null when off (shadow tables are then ordinary tables).
    std::shared_ptr<const filter::OnlineDdlRules> onlineDdl;
    // shard-mode with tables merged into one downstream table: the task's shard DDL locks, shared by its
    // sources (shard_ddl_locks.h); null otherwise.
    std::shared_ptr<ShardDdlLocks> shardLocks;
    // shard-mode: optimistic: the DDLs that fit every shard run at once (optimistic_shard_ddl.h); the others
    // wait in shardLocks. Null otherwise.
    std::shared_ptr<OptimisticShardDdl> optimisticShards;

    std::string auditLogPath;  // empty: no audit log
    int heartbeatSeconds = kDefaultHeartbeatSeconds;
    uint64_t exitSafeStepBytes = kDefaultExitSafeStepBytes;
    bool removeMeta = false;  // delete this task's checkpoint rows before the first start

    // task-mode: "incremental", or "all"/"full" with the snapshot load first (engine/task/load_stage.h).
    std::string taskMode = config::TaskConfig::kIncrementalMode;
    // Apply: find how many transactions at once give the most rows/s, worker-count the ceiling
    // (SYNCSCOPE_ADAPTIVE_CONCURRENCY=off: always worker-count).
    bool adaptiveConcurrency = true;
    // The snapshot load, from DM's mydumpers / loaders (load_config.h); SYNCSCOPE_LOAD_* override them.
    size_t loadThreads = kDefaultLoadThreads;
    uint64_t loadChunkRows = kDefaultLoadChunkRows;
    uint64_t loadChunkBytes = 0;    // chunk-filesize in bytes; 0: chunks of loadChunkRows
    size_t loadStatementBytes = 0;  // statement-size; 0: the load's default
    std::string loadOnDuplicate;    // "error", "replace" or "ignore"; empty: the load's default (replace, as DM)
    std::string loadMethod;         // "prepared", "insert" or "load-data"; empty: the load's default (prepared)

    // Where the task pauses by itself (run --until, POST /api/v1/until); shared with the pipeline.
    std::shared_ptr<StopPointHolder> stopPoint = std::make_shared<StopPointHolder>();

    // The global point this process's last resume-from replaced: rows of the replay window up to it were
    // applied before, so they are fitted to the downstream as later DDLs left it (replayed_rows.h). Empty:
    // rows are never fitted, and a row that fails after an error or an unclean stop fails as itself.
    binlog::Location appliedBeforeResumeFrom;
};

}  // namespace syncscope::task
