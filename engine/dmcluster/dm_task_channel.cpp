#include "engine/dmcluster/dm_task_channel.h"

#include "engine/dmcluster/task_snapshot.h"

namespace syncscope::dmcluster {

DmTaskChannel::DmTaskChannel(std::shared_ptr<DmCluster> cluster, std::string taskName, std::string source)
    : cluster_(std::move(cluster)), taskName_(std::move(taskName)), source_(std::move(source)) {}

std::shared_ptr<const task::StatusSnapshot> DmTaskChannel::status() const {
    std::shared_ptr<const ClusterState> state = cluster_->state();
    std::lock_guard lock(mutex_);
    // The same state gives the same snapshot (the overview then skips its rescan); a poll or a command's effect
    // is a new state.
    if (!last_ || state != lastState_) {
        last_ = std::make_shared<const task::StatusSnapshot>(
            dmTaskSnapshot(*state, cluster_->checkpoints(taskName_), taskName_, source_, cluster_->name()));
        lastState_ = std::move(state);
    }
    return last_;
}

std::vector<task::Notice> DmTaskChannel::drainNotices(size_t) {
    return {};
}

task::CommandResult DmTaskChannel::start() {
    return cluster_->startTask(taskName_, source_);
}

task::CommandResult DmTaskChannel::resume() {
    return cluster_->startTask(taskName_, source_);
}

task::CommandResult DmTaskChannel::pause() {
    return cluster_->stopTask(taskName_, source_);
}

task::CommandResult DmTaskChannel::stop() {
    return cluster_->stopTask(taskName_, source_);
}

task::CommandResult DmTaskChannel::skipFailedEvent(const task::SkipEvidence&) {
    return {false, "skip not sent: DM's OpenAPI has no skip; use dmctl binlog skip " + taskName_ + " on the cluster"};
}

task::CommandResult DmTaskChannel::resumeFrom(const task::ResumeTarget&) {
    return {false,
            "resume-from not sent: DM's OpenAPI cannot move a task's checkpoint; stop the task and start it "
            "with a start_time, or use dmctl"};
}

}  // namespace syncscope::dmcluster
