// A DM task, or one source's subtask of it, as a task the front ends already show and control: status from
// the cluster's last poll (task_snapshot.h); start and resume are DM's start, pause and stop are DM's stop
// (DM's OpenAPI has no pause: a stopped task keeps its checkpoints and a start resumes from them). DM's
// OpenAPI offers no skip and no resume-from: those are refused, naming dmctl's command.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "engine/dmcluster/dm_cluster.h"
#include "engine/task/task_control.h"

namespace syncscope::dmcluster {

class DmTaskChannel : public task::TaskControl {
public:
    // `source` empty: the whole task.
    DmTaskChannel(std::shared_ptr<DmCluster> cluster, std::string taskName, std::string source);

    const std::string& taskName() const { return taskName_; }
    const std::string& source() const { return source_; }
    DmCluster& cluster() const { return *cluster_; }

    std::shared_ptr<const task::StatusSnapshot> status() const override;
    std::vector<task::Notice> drainNotices(size_t maxCount) override;
    task::CommandResult start() override;
    task::CommandResult pause() override;
    task::CommandResult resume() override;
    task::CommandResult stop() override;
    using task::TaskControl::skipFailedEvent;
    task::CommandResult skipFailedEvent(const task::SkipEvidence& evidence) override;
    task::CommandResult resumeFrom(const task::ResumeTarget& target) override;

private:
    std::shared_ptr<DmCluster> cluster_;
    std::string taskName_;
    std::string source_;
    mutable std::mutex mutex_;  // guards the cached snapshot
    mutable std::shared_ptr<const task::StatusSnapshot> last_;
    mutable std::shared_ptr<const ClusterState> lastState_;  // the state it was made from
};

}  // namespace syncscope::dmcluster
