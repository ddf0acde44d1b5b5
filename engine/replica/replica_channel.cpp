#include "engine/replica/replica_channel.h"

#include <ctime>

namespace syncscope::replica {

namespace {

task::PointView pointAt(const std::string& file, uint64_t pos, const std::string& gtid, const MasterView* master) {
    task::PointView point;
    point.file = file;
    point.pos = pos;
    point.gtid = gtid;
    if (master && !file.empty() && binlog::BinlogPosition::isBinlogFileName(file)) {
        point.axis = master->axis.bytesOf(binlog::BinlogPosition(file, pos));
    }
    return point;
}

std::string lastSeenText(const ReplicaServerState& state) {
    if (!state.lastSeen) {
        return "never reached";
    }
    std::time_t seconds = std::chrono::system_clock::to_time_t(*state.lastSeen);
    std::tm local{};
    localtime_r(&seconds, &local);
    constexpr size_t kClockRoom = 32;
    char text[kClockRoom];
    std::strftime(text, sizeof text, "%H:%M:%S", &local);
    return std::string("last seen ") + text;
}

task::Stage stageOf(const ReplicaChannelStatus& channel, std::string& reason) {
    if (channel.lastSqlErrno != 0 && !channel.sqlThreadRunning()) {
        reason = "SQL thread stopped on error " + std::to_string(channel.lastSqlErrno);
        return task::Stage::Error;
    }
    if (channel.lastIoErrno != 0 && !channel.ioThreadRunning()) {
        reason = "IO thread: error " + std::to_string(channel.lastIoErrno) +
                 (channel.ioRunning == "Connecting" ? " (reconnecting)" : "");
        return task::Stage::Error;
    }
    if (channel.ioThreadRunning() && channel.sqlThreadRunning()) {
        reason = channel.sqlState;
        return task::Stage::Running;
    }
    if (!channel.sqlThreadRunning() && (channel.ioRunning == "No" || channel.ioRunning.empty())) {
        reason = "both threads stopped (STOP SLAVE)";
        return task::Stage::Stopped;
    }
    reason = "IO thread " + channel.ioRunning + ", SQL thread " + channel.sqlRunning;
    return task::Stage::Paused;
}

}  // namespace

task::StatusSnapshot channelSnapshot(const ReplicaServerState& state, const std::string& connectionName,
                                     const std::string& replicaName) {
    task::StatusSnapshot snapshot;
    snapshot.takenAt = task::Clock::now();
    snapshot.taskName = connectionName.empty() ? replicaName : replicaName + " '" + connectionName + "'";
    const ReplicaChannelStatus* channel = nullptr;
    for (const auto& candidate : state.channels) {
        if (candidate.connectionName == connectionName) {
            channel = &candidate;
        }
    }
    if (!channel) {
        snapshot.stage = task::Stage::Error;
        snapshot.stageReason =
            state.error.empty() ? "the channel is not configured on the replica any more" : state.error;
        snapshot.lastError = snapshot.stageReason;
        return snapshot;
    }
    const std::string key = channel->masterHost + ":" + std::to_string(channel->masterPort);
    snapshot.sourceId = key;
    const MasterView* master = nullptr;
    if (auto it = state.masters.find(key); it != state.masters.end()) {
        master = &it->second;
    }
    snapshot.stage = stageOf(*channel, snapshot.stageReason);
    snapshot.read = pointAt(channel->readFile, channel->readPos, channel->gtidIoPos, master);
    snapshot.applied = pointAt(channel->execFile, channel->execPos, channel->gtidSlavePos, master);
    snapshot.globalInMemory = snapshot.applied;
    snapshot.globalPersisted = snapshot.applied;
    if (master && master->position) {
        snapshot.upstream = pointAt(master->position->file(), master->position->offset(), master->gtid, master);
        for (const auto& file : master->files) {
            snapshot.upstreamFiles.push_back({file.file, file.size});
        }
    } else {
        snapshot.upstream = snapshot.read;  // the master has at least what the IO thread read
    }
    snapshot.eventsRead = channel->executedEntries;
    snapshot.lagSeconds = static_cast<double>(channel->secondsBehindMaster.value_or(0));
    if (channel->lastSqlErrno != 0) {
        snapshot.lastError =
            "SQL thread: error " + std::to_string(channel->lastSqlErrno) + ": " + channel->lastSqlError;
    } else if (channel->lastIoErrno != 0) {
        snapshot.lastError = "IO thread: error " + std::to_string(channel->lastIoErrno) + ": " + channel->lastIoError;
    } else if (master && !master->error.empty()) {
        snapshot.lastError = master->error;
    }
    if (!state.error.empty()) {
        // The poll failed: these figures are the last ones seen, never shown as a healthy present.
        snapshot.stage = task::Stage::Error;
        snapshot.stageReason = "connection lost (" + lastSeenText(state) + "), reconnecting";
        snapshot.lastError = state.error + " (" + lastSeenText(state) + ", reconnecting)";
        snapshot.lagSeconds = 0;
    }
    if (auto it = state.failedEvents.find(connectionName); it != state.failedEvents.end()) {
        snapshot.failedEvent = it->second;
    }
    return snapshot;
}

ReplicaChannel::ReplicaChannel(std::shared_ptr<ReplicaServer> server, std::string connectionName)
    : server_(std::move(server)), connectionName_(std::move(connectionName)) {}

std::shared_ptr<const task::StatusSnapshot> ReplicaChannel::status() const {
    auto snapshot = std::make_shared<task::StatusSnapshot>(
        channelSnapshot(server_->latest(), connectionName_, server_->describe()));
    snapshot->sequence = ++sequence_;
    return snapshot;
}

std::vector<task::Notice> ReplicaChannel::drainNotices(size_t) {
    return {};
}

task::CommandResult ReplicaChannel::start() {
    return server_->startThreads(connectionName_);
}

task::CommandResult ReplicaChannel::pause() {
    return server_->stopThreads(connectionName_);
}

task::CommandResult ReplicaChannel::resume() {
    return server_->startThreads(connectionName_);
}

task::CommandResult ReplicaChannel::stop() {
    return server_->stopThreads(connectionName_);
}

task::CommandResult ReplicaChannel::skipFailedEvent(const task::SkipEvidence&) {
    return server_->skipFailedEvent(connectionName_);
}

task::CommandResult ReplicaChannel::resumeFrom(const task::ResumeTarget& target) {
    return server_->changeMaster(connectionName_, target);
}

}  // namespace syncscope::replica
