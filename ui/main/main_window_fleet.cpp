// The fleet side of the main window: the overview as the start page, workspace entries added, opened,
// saved and restored, batch actions, notifications and the tray icon with the worst state.
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPainter>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QSystemTrayIcon>

#include "ui/engine/engine_adapter.h"
#include "ui/fleet/fleet_model.h"
#include "ui/fleet/multi_source_group.h"
#include "ui/fleet/notification_center.h"
#include "ui/fleet/workspace.h"
#include "ui/inspect/checkpoint_inspection_page.h"
#include "ui/main/main_window.h"
#include "ui/main/source_picker.h"
#include "ui/main/task_view.h"
#include "ui/overview/channel_dialogs.h"
#include "ui/overview/overview_page.h"
#include "ui/pages/verify_page.h"

namespace syncscope::ui {

namespace {

constexpr int kTrayIconSize = 64;
constexpr int kTrayMessageMilliseconds = 10000;
constexpr int kFleetStatusMilliseconds = 8000;
constexpr int kMillisecondsPerSecond = 1000;

QColor healthColor(ChannelHealth health) {
    switch (health) {
        case ChannelHealth::Failed:
            return QColor(0xc6, 0x28, 0x28);
        case ChannelHealth::Warning:
            return QColor(0xf0, 0xa0, 0x00);
        case ChannelHealth::Healthy:
            return QColor(0x2e, 0x7d, 0x32);
        case ChannelHealth::Idle:
            return QColor(0x75, 0x75, 0x75);
    }
    return Qt::gray;
}

QIcon healthIcon(ChannelHealth health) {
    QPixmap pixmap(kTrayIconSize, kTrayIconSize);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setBrush(healthColor(health));
    painter.setPen(Qt::NoPen);
    constexpr int kMargin = 6;
    painter.drawEllipse(kMargin, kMargin, kTrayIconSize - 2 * kMargin, kTrayIconSize - 2 * kMargin);
    return QIcon(pixmap);
}

}  // namespace

void MainWindow::createFleet() {
    fleet_ = new FleetModel(this);
    notifications_ = new NotificationCenter(this);
    batch_ = new BatchRunner(this);
    overview_ = new OverviewPage(fleet_, notifications_->log(), this);
    tray_ = new QSystemTrayIcon(healthIcon(ChannelHealth::Idle), this);
    tray_->setToolTip(tr("SyncScope: no channel"));
    connect(tray_, &QSystemTrayIcon::activated, this, [this] {
        showNormal();
        raise();
        activateWindow();
    });
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        tray_->show();
    }
    connect(overview_, &OverviewPage::channelActivated, this, &MainWindow::openChannel);
    connect(overview_, &OverviewPage::newTaskRequested, this, &MainWindow::showNewTaskDialog);
    connect(overview_, &OverviewPage::openTaskRequested, this, &MainWindow::openTaskWithDialogs);
    connect(overview_, &OverviewPage::addRemoteRequested, this, &MainWindow::addRemoteEngineWithDialog);
    connect(overview_, &OverviewPage::addReplicaRequested, this, &MainWindow::addReplicaWithDialog);
    connect(overview_, &OverviewPage::inspectRequested, this, [this] {
        CheckpointInspectionPage* page = showCheckpointInspection();
        QTimer::singleShot(0, page, [page] {
            if (!page->isBusy()) {
                page->inspectWithDialog();
            }
        });
    });
    connect(overview_, &OverviewPage::recentTaskRequested, this,
            [this](const QString& taskPath, const QString& sourcePath) {
                emit openTaskRequested({taskPath, sourcePath, QString()});
            });
    connect(overview_, &OverviewPage::batchRequested, this, &MainWindow::runBatch);
    connect(overview_, &OverviewPage::removeRequested, this, [this](int row) {
        if (row < 0 || row >= fleet_->rowCount()) {
            return;
        }
        const FleetModel::Row& channel = fleet_->rowAt(row);
        const QString text =
            channel.kind == ChannelKind::LocalTask
                ? tr("Remove %1 from the workspace? The task is stopped gracefully first.").arg(channel.label)
                : tr("Remove %1 from the workspace? It keeps running where it is.").arg(channel.label);
        if (QMessageBox::question(this, tr("Remove channel"), text) != QMessageBox::Yes) {
            return;
        }
        if (shown_ && shown_ == channel.task) {
            adapter_->detachTask();
            shown_.reset();
            showOverview();
        }
        fleet_->removeGroup(channel.group);
    });
    connect(overview_, &OverviewPage::notificationSettingsRequested, this, [this](int row) {
        if (row < 0 || row >= fleet_->rowCount()) {
            return;
        }
        const FleetModel::Row& channel = fleet_->rowAt(row);
        const ChannelSpec& spec = fleet_->group(channel.group).spec();
        NotificationSettingsDialog dialog(channel.label, spec.notify, spec.lagThresholdSeconds, this);
        if (dialog.exec() == QDialog::Accepted) {
            fleet_->setNotifications(channel.group, dialog.notify(), dialog.lagThresholdSeconds());
        }
    });
    connect(fleet_, &FleetModel::groupsChanged, this, &MainWindow::persistWorkspace);
    connect(notifications_, &NotificationCenter::notified, this, [this](const Notification& notification) {
        const QString text = notification.channel + QStringLiteral(": ") + notification.text;
        statusBar()->showMessage(notification.title + QStringLiteral(" - ") + text, kFleetStatusMilliseconds);
        if (tray_->isVisible() && QSystemTrayIcon::supportsMessages()) {
            tray_->showMessage(
                notification.title, text,
                notification.kind == NotificationKind::Failed ? QSystemTrayIcon::Critical : QSystemTrayIcon::Warning,
                kTrayMessageMilliseconds);
        }
    });
    connect(batch_, &BatchRunner::stepFinished, this,
            [this](const QString& channel, const task::CommandResult& result) {
                statusBar()->showMessage(tr("%1: %2").arg(channel, QString::fromStdString(result.reason)),
                                         kFleetStatusMilliseconds);
            });
    connect(batch_, &BatchRunner::finished, this, [this](int accepted, int refused) {
        statusBar()->showMessage(tr("Batch: %1 done, %2 refused").arg(accepted).arg(refused), kFleetStatusMilliseconds);
        refreshFleet();
    });
    fleetTimer_.setTimerType(Qt::CoarseTimer);
    fleetTimer_.setInterval(kMillisecondsPerSecond / EngineAdapter::kDefaultRefreshHz);
    connect(&fleetTimer_, &QTimer::timeout, this, &MainWindow::refreshFleet);
    fleetTimer_.start();
}

void MainWindow::refreshFleet() {
    fleet_->refresh();
    notifications_->observe(*fleet_, QDateTime::currentDateTime());
    updateTray();
}

void MainWindow::updateTray() {
    const ChannelHealth worst = fleet_->worstHealth();
    if (int(worst) != trayHealth_) {
        tray_->setIcon(healthIcon(worst));
        trayHealth_ = int(worst);
    }
    int failed = 0;
    for (int row = 0; row < fleet_->rowCount(); ++row) {
        failed += fleet_->rowAt(row).health == ChannelHealth::Failed ? 1 : 0;
    }
    tray_->setToolTip(tr("SyncScope: %n channel(s)", nullptr, fleet_->rowCount()) +
                      (failed > 0 ? tr(", %n failed or lost", nullptr, failed) : QString()));
}

int MainWindow::addChannel(const ChannelSpec& spec) {
    const int existing = fleet_->groupOfKey(spec.key());
    if (existing >= 0) {
        return existing;
    }
    if (spec.kind == ChannelKind::NativeReplica && !spec.auditPath.isEmpty()) {
        QDir().mkpath(QFileInfo(spec.auditPath).absolutePath());
    }
    const int group = fleet_->addGroup(openChannelGroup(spec, opener_));
    refreshFleet();
    return group;
}

void MainWindow::openChannel(int row) {
    if (row < 0 || row >= fleet_->rowCount()) {
        return;
    }
    const FleetModel::Row& channel = fleet_->rowAt(row);
    if (!channel.task) {
        statusBar()->showMessage(tr("%1 cannot be shown: %2").arg(channel.label, channel.lastError),
                                 kFleetStatusMilliseconds);
        return;
    }
    const ChannelSpec& spec = fleet_->group(channel.group).spec();
    // A subtask of a task with several sources is shown with its own source file.
    files_ = {spec.taskPath, sourceFileOf(spec, channel.task.get()),
              spec.kind == ChannelKind::NativeReplica ? spec.auditPath : QString()};
    taskView_->clear();
    taskView_->setAuditPath(files_.auditPath);
    // The whole task of several sources offers its sources to the pages that read one (Verify, the windows).
    SourcePicker* picker = taskView_->sourcePicker();
    picker->setTask(spec.kind == ChannelKind::LocalTask ? files_.sourcePath : QString(), channel.task);
    taskView_->verifyPage()->setTask(files_.taskPath, picker->chosenFile(), picker->chosenTask());
    taskView_->loadHistoryOf(channel.task);  // a remote engine's charts start with its own last minutes
    shown_ = channel.task;
    adapter_->attachTask(channel.task);
    stack_->setCurrentWidget(taskView_);
    setWindowTitle(tr("%1 - SyncScope").arg(channel.label));
    updateActions();
}

void MainWindow::showOverview() {
    stack_->setCurrentWidget(overview_);
    setWindowTitle(tr("SyncScope"));
}

bool MainWindow::overviewShown() const {
    return stack_->currentWidget() == overview_;
}

void MainWindow::runBatch(BatchCommand command, const QList<int>& rows) {
    const BatchPlan plan = planBatch(*fleet_, command, rows);
    if (plan.steps.isEmpty()) {
        return;
    }
    const QString text = confirmationText(plan);
    if (plan.runCount() == 0) {
        QMessageBox::information(this, tr("Nothing to do"), text);
        return;
    }
    const bool confirmed =
        confirmBatch_
            ? confirmBatch_(text)
            : QMessageBox::question(this, command == BatchCommand::Pause ? tr("Pause channels") : tr("Resume channels"),
                                    text) == QMessageBox::Yes;
    if (confirmed) {
        batch_->run(plan);
    }
}

void MainWindow::addRemoteEngineWithDialog() {
    AddRemoteEngineDialog dialog(this);
    if (dialog.exec() == QDialog::Accepted) {
        addChannel(dialog.spec());
    }
}

void MainWindow::addReplicaWithDialog() {
    AddReplicaDialog dialog(this);
    if (dialog.exec() == QDialog::Accepted) {
        addChannel(dialog.spec());
    }
}

void MainWindow::persistWorkspace() {
    if (!workspaceKept_) {
        return;
    }
    QList<ChannelSpec> reopenable;
    for (const ChannelSpec& spec : fleet_->specs()) {
        if (spec.kind != ChannelKind::LocalTask || !spec.taskPath.isEmpty()) {
            reopenable.append(spec);
        }
    }
    QSettings settings;
    saveWorkspace(settings, reopenable);
}

void MainWindow::restoreWorkspace() {
    QSettings settings;
    QStringList problems;
    const QList<ChannelSpec> channels = loadWorkspace(settings, &problems);
    for (const ChannelSpec& spec : channels) {
        addChannel(spec);
    }
    if (!problems.isEmpty()) {
        statusBar()->showMessage(tr("Workspace: %1").arg(problems.join(QStringLiteral("; "))),
                                 kFleetStatusMilliseconds);
    }
    workspaceKept_ = true;
    persistWorkspace();
}

bool MainWindow::saveWorkspaceAs(const QString& path, QString* error) {
    return saveWorkspaceFile(path, fleet_->specs(), error);
}

void MainWindow::openWorkspace(const QString& path) {
    QStringList problems;
    for (const ChannelSpec& spec : loadWorkspaceFile(path, &problems)) {
        addChannel(spec);
    }
    if (!problems.isEmpty()) {
        QMessageBox::warning(this, tr("Workspace"), problems.join(QLatin1Char('\n')));
    }
}

}  // namespace syncscope::ui
