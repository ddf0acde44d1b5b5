// One channel of a MariaDB replica as a task the front ends already know how to show and control: its
// status as a StatusSnapshot on the same ruler (master's position, read = IO thread, applied and
// global = SQL thread's executed position, gtid_io_pos / gtid_slave_pos), and the commands mapped to the
// replica's own: start/resume = START SLAVE, pause/stop = STOP SLAVE, skip = sql_slave_skip_counter,
// resume-from = CHANGE MASTER.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "engine/replica/replica_server.h"
#include "engine/task/task_control.h"

namespace syncscope::replica {

class ReplicaChannel : public task::TaskControl {
public:
    ReplicaChannel(std::shared_ptr<ReplicaServer> server, std::string connectionName);

    const std::string& connectionName() const { return connectionName_; }
    ReplicaServer& server() const { return *server_; }

    std::shared_ptr<const task::StatusSnapshot> status() const override;
    std::vector<task::Notice> drainNotices(size_t maxCount) override;
    task::CommandResult start() override;
    task::CommandResult pause() override;
    task::CommandResult resume() override;
    task::CommandResult stop() override;
    using task::TaskControl::skipFailedEvent;
    // sql_slave_skip_counter on the replica; the replica's own audit line keeps the skipped rows.
    task::CommandResult skipFailedEvent(const task::SkipEvidence& evidence) override;
    task::CommandResult resumeFrom(const task::ResumeTarget& target) override;

private:
    std::shared_ptr<ReplicaServer> server_;
    std::string connectionName_;
    mutable std::atomic<uint64_t> sequence_{0};
};

// The snapshot of one channel from a poll of its replica (exposed for tests).
task::StatusSnapshot channelSnapshot(const ReplicaServerState& state, const std::string& connectionName,
                                     const std::string& replicaName);

}  // namespace syncscope::replica
