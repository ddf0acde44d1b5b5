#include "ui/fleet/dm_cluster_group.h"

#include <QCoreApplication>
#include <map>

#include "engine/dmcluster/dm_cluster.h"
#include "engine/dmcluster/dm_task_channel.h"

namespace syncscope::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("DmClusterGroup", text);
}

class DmClusterGroup : public ChannelGroup {
public:
    explicit DmClusterGroup(ChannelSpec spec) : ChannelGroup(std::move(spec)) {
        QString error;
        std::optional<dmcluster::DownstreamAccess> downstream = this->spec().dmDownstreamAccess(&error);
        if (!error.isEmpty()) {
            problem_ = error;
            return;
        }
        try {
            cluster_ = std::make_shared<dmcluster::DmCluster>(this->spec().dmClusterOptions(), std::move(downstream));
        } catch (const std::exception& e) {
            problem_ = QString::fromStdString(e.what());
        }
    }

    QString host() const override {
        if (!cluster_) {
            return spec().masterUrls.join(QStringLiteral(", "));
        }
        auto state = cluster_->state();
        return QString::fromStdString(state->answeringMaster.empty() ? cluster_->name() : state->answeringMaster);
    }

    std::vector<ChannelHandle> channels() override {
        if (!cluster_) {
            return {{spec().title(), nullptr}};
        }
        auto state = cluster_->state();
        std::vector<ChannelHandle> handles;
        for (const auto& task : state->tasks) {
            const QString name = QString::fromStdString(task.name);
            handles.push_back({name, channel(task.name, {})});
            for (const auto& subtask : task.subtasks) {
                QString label = QStringLiteral("%1 / %2").arg(name, QString::fromStdString(subtask.source));
                if (!subtask.worker.empty()) {
                    label += tr(" on %1").arg(QString::fromStdString(subtask.worker));
                }
                handles.push_back({label, channel(task.name, subtask.source)});
            }
        }
        if (handles.empty()) {
            handles.push_back({spec().title(), nullptr});  // not reached yet, refused, or no task
        }
        return handles;
    }

    ChannelConnection connection() const override {
        if (!cluster_) {
            return {true, std::nullopt, problem_};
        }
        const auto shared = cluster_->state();
        const dmcluster::ClusterState& state = *shared;
        ChannelConnection view;
        view.lost = !state.error.empty() || !state.lastSeen;
        if (state.lastSeen) {
            view.lastSeen = QDateTime::fromMSecsSinceEpoch(
                std::chrono::duration_cast<std::chrono::milliseconds>(state.lastSeen->time_since_epoch()).count());
        }
        view.problem = QString::fromStdString(state.error);
        if (view.problem.isEmpty() && !state.lastSeen) {
            view.problem = tr("connecting");
        } else if (view.problem.isEmpty() && state.tasks.empty()) {
            view.problem = tr("the DM cluster has no task");
        }
        return view;
    }

private:
    std::shared_ptr<dmcluster::DmTaskChannel> channel(const std::string& task, const std::string& source) {
        auto& kept = channels_[{task, source}];
        if (!kept) {
            kept = std::make_shared<dmcluster::DmTaskChannel>(cluster_, task, source);
        }
        return kept;
    }

    std::shared_ptr<dmcluster::DmCluster> cluster_;
    std::map<std::pair<std::string, std::string>, std::shared_ptr<dmcluster::DmTaskChannel>> channels_;
    QString problem_;
};

}  // namespace

std::unique_ptr<ChannelGroup> dmClusterGroup(const ChannelSpec& spec) {
    return std::make_unique<DmClusterGroup>(spec);
}

const dmcluster::DmTaskChannel* dmChannelOf(const task::TaskControl* channel) {
    return dynamic_cast<const dmcluster::DmTaskChannel*>(channel);
}

}  // namespace syncscope::ui
