#include "ui/fleet/dm_command.h"

#include <QCoreApplication>

#include "engine/dmcluster/dm_task_channel.h"

namespace syncscope::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("DmCommand", text);
}

std::shared_ptr<dmcluster::DmTaskChannel> dmChannel(const FleetModel::Row& row) {
    return std::dynamic_pointer_cast<dmcluster::DmTaskChannel>(row.task);
}

QString q(const std::string& text) {
    return QString::fromStdString(text);
}

}  // namespace

QList<DmCommand> dmCommandsOf(const FleetModel::Row& row) {
    auto channel = dmChannel(row);
    if (!channel) {
        return {};
    }
    if (channel->source().empty()) {
        return {DmCommand::Start, DmCommand::Stop};
    }
    return {DmCommand::Start, DmCommand::Stop, DmCommand::DisableSource, DmCommand::EnableSource};
}

QString dmCommandName(DmCommand command, const FleetModel::Row& row) {
    auto channel = dmChannel(row);
    const QString source = channel ? q(channel->source()) : QString();
    switch (command) {
        case DmCommand::Start:
            return tr("Start on the DM cluster...");
        case DmCommand::Stop:
            return tr("Stop on the DM cluster...");
        case DmCommand::EnableSource:
            return tr("Enable source %1 on the DM cluster...").arg(source);
        case DmCommand::DisableSource:
            return tr("Disable source %1 on the DM cluster...").arg(source);
    }
    return {};
}

DmCommandPlan planDmCommand(const FleetModel::Row& row, DmCommand command) {
    DmCommandPlan plan;
    plan.command = command;
    plan.channel = dmChannel(row);
    if (!plan.channel) {
        plan.refusal = tr("%1 is not a task of a DM cluster").arg(row.label);
        return plan;
    }
    if (row.lost) {
        plan.refusal = tr("%1: the DM cluster does not answer; nothing is sent (%2)").arg(row.label, row.lastError);
        return plan;
    }
    const dmcluster::DmCluster& cluster = plan.channel->cluster();
    const QString task = q(plan.channel->taskName());
    const QString source = q(plan.channel->source());
    const QString master = q(cluster.latest().answeringMaster);
    const QString audit =
        cluster.options().auditLogPath.empty()
            ? tr("No audit log is set for this cluster.")
            : tr("Written to the audit log %1 before it is sent.").arg(q(cluster.options().auditLogPath));
    const QString scope = source.isEmpty() ? tr("task '%1' on all its sources").arg(task)
                                           : tr("task '%1' on source '%2'").arg(task, source);
    const QString body =
        source.isEmpty() ? QStringLiteral("{}") : QStringLiteral("{\"source_name_list\":[\"%1\"]}").arg(source);
    switch (command) {
        case DmCommand::Start:
            plan.title = tr("Start on the DM cluster");
            plan.confirmation = tr("Start DM %1?\n\nSends POST /api/v1/tasks/%2/start %3 to %4. DM runs each subtask "
                                   "again from its checkpoint.\n\n%5")
                                    .arg(scope, task, body, master, audit);
            break;
        case DmCommand::Stop:
            plan.title = tr("Stop on the DM cluster");
            plan.confirmation = tr("Stop DM %1?\n\nSends POST /api/v1/tasks/%2/stop %3 to %4. DM's OpenAPI has no "
                                   "pause: a stopped subtask keeps its checkpoints, and Start resumes from them.\n\n%5")
                                    .arg(scope, task, body, master, audit);
            break;
        case DmCommand::EnableSource:
        case DmCommand::DisableSource: {
            if (source.isEmpty()) {
                plan.refusal = tr("%1 is a whole task: enable or disable one of its sources on its row").arg(row.label);
                return plan;
            }
            const bool enable = command == DmCommand::EnableSource;
            plan.title = enable ? tr("Enable a DM source") : tr("Disable a DM source");
            plan.confirmation =
                enable ? tr("Enable source '%1' on the DM cluster?\n\nSends POST /api/v1/sources/%1/enable to %2. DM "
                            "runs every task of this source again.\n\n%3")
                             .arg(source, master, audit)
                       : tr("Disable source '%1' on the DM cluster?\n\nSends POST /api/v1/sources/%1/disable to %2. "
                            "DM stops every task of this source, not only '%3'.\n\n%4")
                             .arg(source, master, task, audit);
            break;
        }
    }
    return plan;
}

task::CommandResult runDmCommand(const DmCommandPlan& plan) {
    if (!plan.channel) {
        return {false, plan.refusal.toStdString()};
    }
    dmcluster::DmCluster& cluster = plan.channel->cluster();
    switch (plan.command) {
        case DmCommand::Start:
            return plan.channel->start();
        case DmCommand::Stop:
            return plan.channel->stop();
        case DmCommand::EnableSource:
            return cluster.enableSource(plan.channel->source());
        case DmCommand::DisableSource:
            return cluster.disableSource(plan.channel->source());
    }
    return {false, "unknown command"};
}

}  // namespace syncscope::ui
