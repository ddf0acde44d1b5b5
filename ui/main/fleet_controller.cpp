#include "ui/main/fleet_controller.h"

#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMessageBox>
#include <QSettings>
#include <QtConcurrent/QtConcurrentRun>

#include "ui/engine/engine_adapter.h"
#include "ui/fleet/fleet_model.h"
#include "ui/fleet/multi_source_group.h"
#include "ui/fleet/notification_center.h"
#include "ui/fleet/workspace.h"
#include "ui/main/source_picker.h"
#include "ui/main/status_message.h"
#include "ui/main/task_view.h"
#include "ui/overview/channel_dialogs.h"
#include "ui/pages/verify_page.h"

namespace syncscope::ui {

namespace {
constexpr int kMillisecondsPerSecond = 1000;
}  // namespace

FleetController::FleetController(QWidget* window, TaskView* taskView, EngineAdapter* adapter)
    : QObject(window),
      window_(window),
      taskView_(taskView),
      adapter_(adapter),
      model_(new FleetModel(this)),
      notifications_(new NotificationCenter(this)),
      batch_(new BatchRunner(this)) {
    connect(model_, &FleetModel::groupsChanged, this, &FleetController::persistWorkspace);
    connect(notifications_, &NotificationCenter::notified, this, [this](const Notification& notification) {
        const QString text = notification.channel + QStringLiteral(": ") + notification.text;
        emit statusMessage(notification.title + QStringLiteral(" - ") + text, kStatusMessageMilliseconds);
    });
    connect(batch_, &BatchRunner::stepFinished, this,
            [this](const QString& channel, const task::CommandResult& result) {
                emit statusMessage(tr("%1: %2").arg(channel, QString::fromStdString(result.reason)),
                                   kStatusMessageMilliseconds);
            });
    connect(batch_, &BatchRunner::finished, this, [this](int accepted, int refused) {
        emit statusMessage(tr("Batch: %1 done, %2 refused").arg(accepted).arg(refused), kStatusMessageMilliseconds);
        refresh();
    });
    timer_.setTimerType(Qt::CoarseTimer);
    timer_.setInterval(kMillisecondsPerSecond / EngineAdapter::kDefaultRefreshHz);
    connect(&timer_, &QTimer::timeout, this, &FleetController::refresh);
    timer_.start();
}

bool FleetController::shownIsLocal() const {
    const int row = shown_.task ? model_->rowOfTask(shown_.task.get()) : -1;
    return row < 0 || model_->rowAt(row).kind == ChannelKind::LocalTask;
}

void FleetController::showChannel(const std::shared_ptr<task::TaskControl>& task, const QString& pickerSourceField) {
    taskView_->clear();
    taskView_->setAuditPath(shown_.files.auditPath);
    // The whole task of several sources offers its sources to the pages that read one (Verify, the windows).
    SourcePicker* picker = taskView_->sourcePicker();
    picker->setTask(pickerSourceField, task);
    taskView_->verifyPage()->setTask(shown_.files.taskPath, picker->chosenFile(), picker->chosenTask());
}

void FleetController::attachTask(std::shared_ptr<task::TaskControl> task, const TaskFiles& files) {
    shown_.files = files;
    if (!task) {
        detachTask();
        return;
    }
    ChannelSpec spec;
    spec.kind = ChannelKind::LocalTask;
    spec.taskPath = files.taskPath;
    spec.sourcePath = files.sourcePath;
    if (model_->rowOfTask(task.get()) < 0) {
        model_->addGroup(localTaskGroup(spec, task));
        model_->refresh();
    }
    showChannel(task, files.sourcePath);
    emit taskViewRequested();
    shown_.task = task;
    adapter_->attachTask(std::move(task));
    if (!files.taskPath.isEmpty()) {
        emit taskFilesOpened(files);
        emit titleChanged(tr("%1 - SyncScope").arg(QFileInfo(files.taskPath).fileName()));
    }
    emit shownChannelChanged();
}

void FleetController::detachTask() {
    taskView_->verifyPage()->setTask({}, {}, nullptr);
    taskView_->sourcePicker()->clear();
    adapter_->detachTask();
    if (shown_.task) {
        const int row = model_->rowOfTask(shown_.task.get());
        if (row >= 0 && model_->rowAt(row).kind == ChannelKind::LocalTask) {
            model_->removeGroup(model_->rowAt(row).group);
        }
        shown_.task.reset();
    }
    taskView_->clear();
    emit overviewRequested();
    emit shownChannelChanged();
}

int FleetController::addChannel(const ChannelSpec& spec) {
    const int existing = model_->groupOfKey(spec.key());
    if (existing >= 0) {
        return existing;
    }
    if ((spec.kind == ChannelKind::NativeReplica || spec.kind == ChannelKind::DmCluster) && !spec.auditPath.isEmpty()) {
        QDir().mkpath(QFileInfo(spec.auditPath).absolutePath());
    }
    const int group = model_->addGroup(openChannelGroup(spec, opener_));
    refresh();
    return group;
}

void FleetController::openChannel(int row) {
    if (row < 0 || row >= model_->rowCount()) {
        return;
    }
    const FleetModel::Row& channel = model_->rowAt(row);
    if (!channel.task) {
        emit statusMessage(tr("%1 cannot be shown: %2").arg(channel.label, channel.lastError),
                           kStatusMessageMilliseconds);
        return;
    }
    const ChannelSpec& spec = model_->group(channel.group).spec();
    // A subtask of a task with several sources is shown with its own source file.
    const bool auditsHere = spec.kind == ChannelKind::NativeReplica || spec.kind == ChannelKind::DmCluster;
    shown_.files = {spec.taskPath, sourceFileOf(spec, channel.task.get()), auditsHere ? spec.auditPath : QString()};
    showChannel(channel.task, spec.kind == ChannelKind::LocalTask ? shown_.files.sourcePath : QString());
    taskView_->loadHistoryOf(channel.task);  // a remote engine's charts start with its own last minutes
    shown_.task = channel.task;
    adapter_->attachTask(channel.task);
    emit taskViewRequested();
    emit titleChanged(tr("%1 - SyncScope").arg(channel.label));
    emit shownChannelChanged();
}

void FleetController::removeChannelWithConfirmation(int row) {
    if (row < 0 || row >= model_->rowCount()) {
        return;
    }
    const FleetModel::Row& channel = model_->rowAt(row);
    const QString text =
        channel.kind == ChannelKind::LocalTask
            ? tr("Remove %1 from the workspace? The task is stopped gracefully first.").arg(channel.label)
            : tr("Remove %1 from the workspace? It keeps running where it is.").arg(channel.label);
    if (QMessageBox::question(window_, tr("Remove channel"), text) != QMessageBox::Yes) {
        return;
    }
    if (shown_.task && shown_.task == channel.task) {
        adapter_->detachTask();
        shown_.task.reset();
        emit overviewRequested();
    }
    model_->removeGroup(channel.group);
}

void FleetController::editNotifications(int row) {
    if (row < 0 || row >= model_->rowCount()) {
        return;
    }
    const FleetModel::Row& channel = model_->rowAt(row);
    const ChannelSpec& spec = model_->group(channel.group).spec();
    NotificationSettingsDialog dialog(channel.label, spec.notify, spec.lagThresholdSeconds, window_);
    if (dialog.exec() == QDialog::Accepted) {
        model_->setNotifications(channel.group, dialog.notify(), dialog.lagThresholdSeconds());
    }
}

void FleetController::refresh() {
    model_->refresh();
    notifications_->observe(*model_, QDateTime::currentDateTime());
    emit refreshed();
}

void FleetController::runBatch(BatchCommand command, const QList<int>& rows) {
    const BatchPlan plan = planBatch(*model_, command, rows);
    if (plan.steps.isEmpty()) {
        return;
    }
    const QString text = confirmationText(plan);
    if (plan.runCount() == 0) {
        QMessageBox::information(window_, tr("Nothing to do"), text);
        return;
    }
    const bool confirmed =
        confirmBatch_ ? confirmBatch_(text)
                      : QMessageBox::question(
                            window_, command == BatchCommand::Pause ? tr("Pause channels") : tr("Resume channels"),
                            text) == QMessageBox::Yes;
    if (confirmed) {
        batch_->run(plan);
    }
}

void FleetController::addRemoteEngineWithDialog() {
    AddRemoteEngineDialog dialog(window_);
    if (dialog.exec() == QDialog::Accepted) {
        addChannel(dialog.spec());
    }
}

void FleetController::addReplicaWithDialog() {
    AddReplicaDialog dialog(window_);
    if (dialog.exec() == QDialog::Accepted) {
        addChannel(dialog.spec());
    }
}

void FleetController::addDmClusterWithDialog() {
    AddDmClusterDialog dialog(window_);
    if (dialog.exec() == QDialog::Accepted) {
        addChannel(dialog.spec());
    }
}

void FleetController::runDmCommandWithConfirmation(int row, DmCommand command) {
    if (row < 0 || row >= model_->rowCount()) {
        return;
    }
    // Taken before the dialog: the fleet refreshes while it is open, and the rows may move.
    const DmCommandPlan plan = planDmCommand(model_->rowAt(row), command);
    const QString channel = model_->rowAt(row).label;
    if (!plan.refusal.isEmpty()) {
        emit statusMessage(tr("Nothing sent: %1").arg(plan.refusal), kStatusMessageMilliseconds);
        return;
    }
    const bool confirmed = confirmBatch_
                               ? confirmBatch_(plan.confirmation)
                               : QMessageBox::question(window_, plan.title, plan.confirmation) == QMessageBox::Yes;
    if (!confirmed) {
        return;
    }
    auto* watcher = new QFutureWatcher<task::CommandResult>(this);
    connect(watcher, &QFutureWatcher<task::CommandResult>::finished, this, [this, watcher, channel] {
        const task::CommandResult result = watcher->result();
        watcher->deleteLater();
        emit statusMessage(tr("%1: %2").arg(channel, QString::fromStdString(result.reason)),
                           kStatusMessageMilliseconds);
        refresh();
    });
    // The plan by value (it holds the channel), never `this`: the request may outlive the window.
    watcher->setFuture(QtConcurrent::run([plan] { return runDmCommand(plan); }));
}

void FleetController::persistWorkspace() {
    if (!workspaceKept_) {
        return;
    }
    QList<ChannelSpec> reopenable;
    for (const ChannelSpec& spec : model_->specs()) {
        if (spec.kind != ChannelKind::LocalTask || !spec.taskPath.isEmpty()) {
            reopenable.append(spec);
        }
    }
    QSettings settings;
    saveWorkspace(settings, reopenable);
}

void FleetController::restoreWorkspace() {
    QSettings settings;
    QStringList problems;
    const QList<ChannelSpec> channels = loadWorkspace(settings, &problems);
    for (const ChannelSpec& spec : channels) {
        addChannel(spec);
    }
    if (!problems.isEmpty()) {
        emit statusMessage(tr("Workspace: %1").arg(problems.join(QStringLiteral("; "))), kStatusMessageMilliseconds);
    }
    workspaceKept_ = true;
    persistWorkspace();
}

void FleetController::openWorkspaceWithDialog() {
    const QString path = QFileDialog::getOpenFileName(window_, tr("Open a workspace"), {},
                                                      tr("SyncScope workspace (*.syncscope.json *.json)"));
    if (!path.isEmpty()) {
        openWorkspace(path);
    }
}

void FleetController::saveWorkspaceWithDialog() {
    const QString path = QFileDialog::getSaveFileName(window_, tr("Save the workspace"), {},
                                                      tr("SyncScope workspace (*.syncscope.json)"));
    QString error;
    if (!path.isEmpty() && !saveWorkspaceAs(path, &error)) {
        QMessageBox::warning(window_, tr("Cannot save the workspace"), error);
    }
}

bool FleetController::saveWorkspaceAs(const QString& path, QString* error) {
    return saveWorkspaceFile(path, model_->specs(), error);
}

void FleetController::openWorkspace(const QString& path) {
    QStringList problems;
    for (const ChannelSpec& spec : loadWorkspaceFile(path, &problems)) {
        addChannel(spec);
    }
    if (!problems.isEmpty()) {
        QMessageBox::warning(window_, tr("Workspace"), problems.join(QLatin1Char('\n')));
    }
}

}  // namespace syncscope::ui
