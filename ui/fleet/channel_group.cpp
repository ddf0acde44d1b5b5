#include "ui/fleet/channel_group.h"

#include <QCoreApplication>
#include <map>

#include "engine/remote/remote_task.h"
#include "engine/replica/replica_channel.h"
#include "engine/replica/replica_server.h"
#include "ui/fleet/dm_cluster_group.h"
#include "ui/fleet/multi_source_group.h"

namespace syncscope::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ChannelGroup", text);
}

QDateTime toDateTime(std::chrono::system_clock::time_point at) {
    return QDateTime::fromMSecsSinceEpoch(
        std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count());
}

class LocalTaskGroup : public ChannelGroup {
public:
    LocalTaskGroup(ChannelSpec spec, std::shared_ptr<task::TaskControl> task, QString problem)
        : ChannelGroup(std::move(spec)), task_(std::move(task)), problem_(std::move(problem)) {}
    QString host() const override { return tr("this machine"); }
    std::vector<ChannelHandle> channels() override {
        QString label = spec().title();
        if (label.isEmpty() && task_) {
            if (auto snapshot = task_->status()) {
                label = QString::fromStdString(snapshot->taskName);  // a task opened without files
            }
        }
        return {{label, task_}};
    }
    ChannelConnection connection() const override { return {task_ == nullptr, std::nullopt, problem_}; }

private:
    std::shared_ptr<task::TaskControl> task_;
    QString problem_;
};

class RemoteEngineGroup : public ChannelGroup {
public:
    explicit RemoteEngineGroup(ChannelSpec spec) : ChannelGroup(std::move(spec)) {
        remote::RemoteEngineOptions options;
        options.host = this->spec().host.toStdString();
        options.port = this->spec().port;
        options.tls = this->spec().tls;
        options.caFile = this->spec().caFile.toStdString();
        options.tokenFile = this->spec().tokenFile.toStdString();
        try {
            task_ = std::make_shared<remote::RemoteTask>(options);
        } catch (const std::exception& e) {
            problem_ = QString::fromStdString(e.what());
        }
    }
    QString host() const override { return QStringLiteral("%1:%2").arg(spec().host).arg(spec().port); }
    std::vector<ChannelHandle> channels() override {
        QString label = spec().title();
        if (task_) {
            auto snapshot = task_->status();
            if (snapshot && !snapshot->taskName.empty() && task_->connection().lastSeen) {
                label = QString::fromStdString(snapshot->taskName);
            }
        }
        return {{label, task_}};
    }
    ChannelConnection connection() const override {
        if (!task_) {
            return {true, std::nullopt, problem_};
        }
        remote::RemoteConnection state = task_->connection();
        ChannelConnection view;
        view.lost = !state.connected;
        if (state.lastSeen) {
            view.lastSeen = toDateTime(*state.lastSeen);
        }
        view.problem = QString::fromStdString(state.error);
        return view;
    }

private:
    std::shared_ptr<remote::RemoteTask> task_;
    QString problem_;
};

class ReplicaGroup : public ChannelGroup {
public:
    explicit ReplicaGroup(ChannelSpec spec) : ChannelGroup(std::move(spec)) {
        replica::ReplicaServerOptions options;
        options.replica.host = this->spec().host.toStdString();
        options.replica.port = this->spec().port;
        options.replica.user = this->spec().user.toStdString();
        QString error;
        options.replica.password = this->spec().resolvedPassword(&error).toStdString();
        options.auditLogPath = this->spec().auditPath.toStdString();
        if (!error.isEmpty()) {
            problem_ = error;
            return;
        }
        server_ = std::make_shared<replica::ReplicaServer>(options);
    }
    QString host() const override { return QStringLiteral("%1:%2").arg(spec().host).arg(spec().port); }
    std::vector<ChannelHandle> channels() override {
        if (!server_) {
            return {{spec().title(), nullptr}};
        }
        replica::ReplicaServerState state = server_->latest();
        std::vector<ChannelHandle> handles;
        for (const auto& channel : state.channels) {
            auto& task = channels_[channel.connectionName];
            if (!task) {
                task = std::make_shared<replica::ReplicaChannel>(server_, channel.connectionName);
            }
            QString label = spec().title();
            if (!channel.connectionName.empty()) {
                label += QStringLiteral(" '%1'").arg(QString::fromStdString(channel.connectionName));
            }
            handles.push_back({label, task});
        }
        if (handles.empty()) {
            handles.push_back({spec().title(), nullptr});  // unreachable, refused, or no channel configured
        }
        return handles;
    }
    ChannelConnection connection() const override {
        if (!server_) {
            return {true, std::nullopt, problem_};
        }
        replica::ReplicaServerState state = server_->latest();
        ChannelConnection view;
        view.lost = !state.error.empty() || !state.lastSeen;
        if (state.lastSeen) {
            view.lastSeen = toDateTime(*state.lastSeen);
        }
        view.problem = QString::fromStdString(state.error);
        if (view.problem.isEmpty() && state.lastSeen && state.channels.empty()) {
            view.lost = false;
            view.problem = tr("no replication channel is configured on this server (SHOW ALL SLAVES STATUS is empty)");
        } else if (view.problem.isEmpty() && !state.lastSeen) {
            view.problem = tr("connecting");
        }
        return view;
    }

private:
    std::shared_ptr<replica::ReplicaServer> server_;
    std::map<std::string, std::shared_ptr<replica::ReplicaChannel>> channels_;
    QString problem_;
};

}  // namespace

std::unique_ptr<ChannelGroup> openChannelGroup(const ChannelSpec& spec, const LocalTaskOpener& opener) {
    switch (spec.kind) {
        case ChannelKind::LocalTask: {
            QString error;
            std::shared_ptr<task::TaskControl> task;
            if (opener) {
                task = opener(spec, &error);
            } else {
                error = tr("local tasks cannot be opened here");
            }
            if (auto several = std::dynamic_pointer_cast<multisource::MultiSourceTask>(task)) {
                return multiSourceTaskGroup(spec, std::move(several));  // a row per source under the task's
            }
            return std::make_unique<LocalTaskGroup>(spec, std::move(task), error);
        }
        case ChannelKind::RemoteEngine:
            return std::make_unique<RemoteEngineGroup>(spec);
        case ChannelKind::NativeReplica:
            return std::make_unique<ReplicaGroup>(spec);
        case ChannelKind::DmCluster:
            return dmClusterGroup(spec);
    }
    return nullptr;
}

std::unique_ptr<ChannelGroup> localTaskGroup(const ChannelSpec& spec, std::shared_ptr<task::TaskControl> task) {
    if (auto several = std::dynamic_pointer_cast<multisource::MultiSourceTask>(task)) {
        return multiSourceTaskGroup(spec, std::move(several));
    }
    return std::make_unique<LocalTaskGroup>(spec, std::move(task), QString());
}

}  // namespace syncscope::ui
