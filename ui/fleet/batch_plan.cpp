#include "ui/fleet/batch_plan.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace syncscope::ui {

namespace {

QString commandText(BatchCommand command, ChannelKind kind) {
    if (kind == ChannelKind::NativeReplica) {
        return command == BatchCommand::Pause ? QObject::tr("STOP SLAVE") : QObject::tr("START SLAVE");
    }
    if (kind == ChannelKind::DmCluster) {  // DM's OpenAPI has no pause: stop keeps the checkpoints
        return command == BatchCommand::Pause ? QObject::tr("stop (DM)") : QObject::tr("start (DM)");
    }
    return command == BatchCommand::Pause ? QObject::tr("pause") : QObject::tr("resume");
}

}  // namespace

int BatchPlan::runCount() const {
    int count = 0;
    for (const BatchStep& step : steps) {
        count += step.runs ? 1 : 0;
    }
    return count;
}

BatchPlan planBatch(const FleetModel& model, BatchCommand command, const QList<int>& rows) {
    BatchPlan plan;
    plan.command = command;
    for (int row : rows) {
        if (row < 0 || row >= model.rowCount()) {
            continue;
        }
        const FleetModel::Row& channel = model.rowAt(row);
        BatchStep step;
        step.channel = channel.label;
        step.kind = kindName(channel.kind);
        step.stage = channel.stage;
        step.task = channel.task;
        const std::optional<task::Stage> stage =
            channel.snapshot && !channel.lost ? std::optional(channel.snapshot->stage) : std::nullopt;
        if (!channel.task || channel.lost) {
            step.note = QObject::tr("left alone: not reachable");
        } else if (command == BatchCommand::Pause && stage != task::Stage::Running) {
            step.note = QObject::tr("left alone: not running");
        } else if (command == BatchCommand::Resume && stage != task::Stage::Paused && stage != task::Stage::Error &&
                   !((channel.kind == ChannelKind::NativeReplica || channel.kind == ChannelKind::DmCluster) &&
                     stage == task::Stage::Stopped)) {
            step.note = QObject::tr("left alone: neither paused nor failed");
        } else {
            step.runs = true;
            step.note = commandText(command, channel.kind);
        }
        plan.steps.append(step);
    }
    return plan;
}

QString confirmationText(const BatchPlan& plan) {
    const QString verb = plan.command == BatchCommand::Pause ? QObject::tr("Pause") : QObject::tr("Resume");
    QString text =
        QObject::tr("%1 %2 of the %3 selected channel(s)?\n").arg(verb).arg(plan.runCount()).arg(plan.steps.size());
    for (const BatchStep& step : plan.steps) {
        if (step.runs) {
            text += QStringLiteral("\n  %1 (%2, %3): %4").arg(step.channel, step.kind, step.stage, step.note);
        }
    }
    bool headed = false;
    for (const BatchStep& step : plan.steps) {
        if (!step.runs) {
            if (!headed) {
                text += QObject::tr("\n\nNot changed:");
                headed = true;
            }
            text += QStringLiteral("\n  %1 (%2, %3): %4").arg(step.channel, step.kind, step.stage, step.note);
        }
    }
    return text;
}

void BatchRunner::run(const BatchPlan& plan) {
    for (const BatchStep& step : plan.steps) {
        if (!step.runs || !step.task) {
            continue;
        }
        ++pending_;
        auto* watcher = new QFutureWatcher<task::CommandResult>(this);
        const QString channel = step.channel;
        connect(watcher, &QFutureWatcher<task::CommandResult>::finished, this, [this, watcher, channel] {
            const task::CommandResult result = watcher->result();
            watcher->deleteLater();
            (result.accepted ? accepted_ : refused_) += 1;
            emit stepFinished(channel, result);
            if (--pending_ == 0) {
                emit finished(accepted_, refused_);
                accepted_ = refused_ = 0;
            }
        });
        const bool pause = plan.command == BatchCommand::Pause;
        // The task by value, never `this`: the command may outlive the window.
        watcher->setFuture(
            QtConcurrent::run([task = step.task, pause] { return pause ? task->pause() : task->resume(); }));
    }
    if (pending_ == 0) {
        emit finished(0, 0);
    }
}

}  // namespace syncscope::ui
