// One MariaDB replica server added by address: its channels (SHOW ALL SLAVES STATUS, multi-source
// too), each master's position and binlog files for the ruler, and the event a failed SQL thread
// stopped on, decoded from the master's binlog. Polls on its own thread and connections, so that a
// slow or dead server never delays a caller; commands (stop/start the threads, skip the failed event,
// CHANGE MASTER) are written to the audit log before they run.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/binlog/position_axis.h"
#include "engine/common/polling_thread.h"
#include "engine/common/server_settings.h"
#include "engine/replica/replica_channel_status.h"
#include "engine/task/audit_log.h"
#include "engine/task/task_control.h"

namespace syncscope::source {
class UpstreamConnection;
}

namespace syncscope::replica {

struct ReplicaServerOptions {
    ServerSettings replica;  // where SHOW ALL SLAVES STATUS runs and the commands go
    // Credentials (and TLS) to read a master's position and binlog; host and port come from each
    // channel. Unset: the replica's own credentials are tried.
    std::optional<ServerSettings> masterCredentials;
    std::string auditLogPath;  // JSON Lines; empty: no audit (tests that do not look)
    std::chrono::milliseconds pollInterval{500};
};

// What a master showed at the last poll (SHOW MASTER STATUS, SHOW BINARY LOGS).
struct MasterView {
    std::optional<binlog::BinlogPosition> position;
    std::string gtid;  // @@gtid_binlog_pos
    std::vector<binlog::BinlogFileSize> files;
    binlog::PositionAxis axis;
    std::string error;  // why the master could not be read; empty when it could
};

struct ReplicaServerState {
    std::vector<ReplicaChannelStatus> channels;
    std::map<std::string, MasterView> masters;              // by "host:port"
    std::map<std::string, task::FailedEvent> failedEvents;  // by connection name, while failed
    std::string error;  // why the last poll failed (unreachable, a missing privilege); empty when it worked
    std::optional<std::chrono::system_clock::time_point> lastSeen;  // last poll that worked
    uint64_t polls = 0;
};

class ReplicaServer {
public:
    explicit ReplicaServer(ReplicaServerOptions options);  // starts polling at once
    ~ReplicaServer();
    ReplicaServer(const ReplicaServer&) = delete;
    ReplicaServer& operator=(const ReplicaServer&) = delete;

    ReplicaServerState latest() const;
    const ReplicaServerOptions& options() const { return options_; }
    std::string describe() const { return options_.replica.describe(); }
    void pollNow();  // wakes the poller (after a command, so that the views follow at once)

    // The commands, each audited before it runs; refused with the reason when the channel's state does
    // not allow it (e.g. skip while the SQL thread runs).
    task::CommandResult startThreads(const std::string& connectionName);
    task::CommandResult stopThreads(const std::string& connectionName);
    task::CommandResult skipFailedEvent(const std::string& connectionName);
    task::CommandResult changeMaster(const std::string& connectionName, const task::ResumeTarget& target);

private:
    void pollOnce();
    MasterView readMaster(const ReplicaChannelStatus& channel);
    task::FailedEvent failingEventOf(const ReplicaChannelStatus& channel) const;
    // Why a command cannot be sent now (the replica not reached, no such channel); nullopt when it can.
    // Why CHANGE MASTER to this file and position cannot work (a file the master does not have, a position
    // past its end), from the master's files at the last poll; nullopt when it may.
    std::optional<std::string> positionProblem(const std::string& connectionName,
                                               const task::ResumeTarget& target) const;
    std::optional<task::CommandResult> refusal(const std::string& connectionName, const std::string& action) const;
    ServerSettings masterSettings(const ReplicaChannelStatus& channel) const;
    std::optional<ReplicaChannelStatus> channel(const std::string& connectionName) const;
    task::CommandResult run(const std::string& action, const std::string& connectionName,
                            const std::vector<std::string>& statements, const std::string& positionAfter,
                            nlohmann::json details);

    ReplicaServerOptions options_;
    task::AuditLog audit_;
    std::unique_ptr<source::UpstreamConnection> connection_;                                // the poller's
    std::map<std::string, std::unique_ptr<source::UpstreamConnection>> masterConnections_;  // the poller's
    std::mutex commandMutex_;                                                               // one command at a time
    mutable std::mutex mutex_;                                                              // guards state_
    ReplicaServerState state_;
    PollingThread poller_{options_.pollInterval, [this] { pollOnce(); }};  // last: started after the rest
};

}  // namespace syncscope::replica
