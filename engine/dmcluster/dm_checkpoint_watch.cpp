#include "engine/dmcluster/dm_checkpoint_watch.h"

#include "engine/inspect/checkpoint_inspector.h"

namespace syncscope::dmcluster {

namespace {

constexpr int kConnectTimeoutSeconds = 3;
constexpr int kReadTimeoutSeconds = 10;

}  // namespace

DmCheckpointWatch::DmCheckpointWatch(DownstreamAccess access, std::function<ClusterState()> tasks)
    : access_(std::move(access)), tasks_(std::move(tasks)) {}

DmCheckpointWatch::~DmCheckpointWatch() = default;

std::optional<TaskCheckpoints> DmCheckpointWatch::of(const std::string& taskName) const {
    std::lock_guard lock(mutex_);
    auto it = byTask_.find(taskName);
    if (it == byTask_.end()) {
        return std::nullopt;
    }
    return it->second;
}

void DmCheckpointWatch::readAll() {
    const ClusterState state = tasks_();
    for (const auto& task : state.tasks) {
        inspect::InspectionRequest request;
        request.target = access_.server;
        if (!access_.overrideAddress) {
            request.target.host = task.targetHost;
            request.target.port = task.targetPort;
        }
        request.target.connectTimeoutSeconds = kConnectTimeoutSeconds;
        request.target.readTimeoutSeconds = kReadTimeoutSeconds;
        request.metaSchema = task.metaSchema;
        request.task = task.name;
        TaskCheckpoints read;
        read.readAt = std::chrono::system_clock::now();
        try {
            inspect::InspectionReport report = inspect::inspectCheckpoints(request);
            if (report.tables.empty()) {
                read.error = "no checkpoint table " + task.metaSchema + "." + task.name + "_syncer_checkpoint on " +
                             request.target.describe();
            } else {
                read.table = std::move(report.tables.front());
                read.error = read.table->problem;
            }
        } catch (const std::exception& e) {
            read.error = std::string("checkpoint tables not read: ") + e.what();
        }
        std::lock_guard lock(mutex_);
        byTask_[task.name] = std::move(read);
    }
}

}  // namespace syncscope::dmcluster
