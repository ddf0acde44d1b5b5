// The checkpoint tables a DM cluster's tasks write downstream (`<meta-schema>.<task>_syncer_checkpoint`),
// read read-only through the checkpoint inspection on a thread of its own, every few seconds, with the
// credentials the DBA gave (DM's answers never carry a usable password). Each task's tables are read from
// its target_config's address, or from the address the DBA gave instead (DM's may only be reachable from
// the workers). What the inspection flags (a table point ahead of the global point) comes with it.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "engine/common/polling_thread.h"
#include "engine/common/server_settings.h"
#include "engine/dmcluster/cluster_state.h"
#include "engine/inspect/inspection_report.h"

namespace syncscope::dmcluster {

struct DownstreamAccess {
    static constexpr std::chrono::milliseconds kDefaultInterval{5000};

    ServerSettings server;         // user and password; host and port used when `overrideAddress`
    bool overrideAddress = false;  // false: each task's target_config host and port
    std::chrono::milliseconds interval = kDefaultInterval;
};

// One task's checkpoint tables as last read.
struct TaskCheckpoints {
    std::optional<inspect::InspectedCheckpointTable> table;
    std::string error;  // why they could not be read (names the server, never the password)
    std::optional<std::chrono::system_clock::time_point> readAt;
};

class DmCheckpointWatch {
public:
    // `tasks` gives the cluster's tasks as last polled; called on the watch's thread.
    DmCheckpointWatch(DownstreamAccess access, std::function<ClusterState()> tasks);
    ~DmCheckpointWatch();
    DmCheckpointWatch(const DmCheckpointWatch&) = delete;
    DmCheckpointWatch& operator=(const DmCheckpointWatch&) = delete;

    std::optional<TaskCheckpoints> of(const std::string& taskName) const;

private:
    void readAll();

    DownstreamAccess access_;
    std::function<ClusterState()> tasks_;
    mutable std::mutex mutex_;  // guards byTask_
    std::map<std::string, TaskCheckpoints> byTask_;
    PollingThread poller_{access_.interval, [this] { readAll(); }};  // last: started after the rest
};

}  // namespace syncscope::dmcluster
