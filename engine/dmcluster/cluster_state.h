// What a DM cluster showed at its last poll, in DM's own terms (tasks, their subtasks per source, sources,
// masters, workers), as its OpenAPI answers it (GET /api/v1/tasks?with_status=true and the rest).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace syncscope::dmcluster {

// A binlog location as DM writes it ("(mysql-bin.000001, 1979)"), and the GTID set beside it.
struct DmLocation {
    std::string file;  // empty when DM gave none
    uint64_t pos = 0;
    std::string gtid;
};

// sync_status of a subtask in the sync unit.
struct DmSyncStatus {
    int64_t totalEvents = 0;
    int64_t totalTps = 0;
    int64_t recentTps = 0;
    DmLocation masterBinlog;  // the upstream's end, as the worker last read it
    DmLocation syncerBinlog;  // where the syncer stands
    std::vector<std::string> blockingDdls;
    std::vector<std::string> unresolvedGroups;  // target tables of unresolved sharding groups
    bool synced = false;
    std::string binlogType;  // "local" (relay) or "remote"
    int64_t secondsBehindMaster = 0;
};

// One source's part of a task (SubTaskStatus).
struct DmSubtask {
    std::string task;
    std::string source;
    std::string worker;
    std::string stage;  // Running, Paused, Stopped, Finished
    std::string unit;   // dump, load, sync
    std::string unresolvedDdlLockId;
    std::string errorMessage;
    std::optional<DmSyncStatus> sync;
    std::optional<std::string> loadProgress;  // load_status.progress or dump_status.progress
};

struct DmTask {
    std::string name;
    std::string taskMode;   // full, incremental, all, dump, load
    std::string shardMode;  // pessimistic, optimistic, empty
    std::string metaSchema;
    std::string targetHost;  // target_config: where the dm_meta checkpoint tables are
    int targetPort = 0;
    std::string targetUser;
    std::vector<std::string> sources;  // source_config.source_conf[].source_name
    std::vector<DmSubtask> subtasks;   // status_list
};

struct DmSource {
    std::string name;
    std::string host;
    int port = 0;
    bool enabled = false;
    bool gtid = false;
    std::vector<std::string> workers;  // status_list[].worker_name
};

struct DmMaster {
    std::string name;
    std::string address;
    bool alive = false;
    bool leader = false;
};

struct DmWorker {
    std::string name;
    std::string address;
    std::string boundStage;  // bound, free, offline
    std::string boundSource;
};

struct ClusterState {
    std::vector<DmTask> tasks;
    std::vector<DmSource> sources;
    std::vector<DmMaster> masters;
    std::vector<DmWorker> workers;
    std::string answeringMaster;                                    // the dm-master URL that answered the last poll
    std::string error;                                              // why the last poll failed; empty when it worked
    std::optional<std::chrono::system_clock::time_point> lastSeen;  // last poll that worked
    uint64_t polls = 0;
    uint64_t failedPolls = 0;  // in a row

    const DmTask* task(const std::string& name) const {
        for (const auto& candidate : tasks) {
            if (candidate.name == name) {
                return &candidate;
            }
        }
        return nullptr;
    }
};

}  // namespace syncscope::dmcluster
