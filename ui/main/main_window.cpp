#include "ui/main/main_window.h"

#include <QApplication>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolBar>

#include "ui/browse/event_browser_page.h"
#include "ui/dialogs/new_task_dialog.h"
#include "ui/engine/engine_adapter.h"
#include "ui/fleet/fleet_model.h"
#include "ui/fleet/multi_source_group.h"
#include "ui/fleet/notification_center.h"
#include "ui/main/browse_controller.h"
#include "ui/main/fleet_controller.h"
#include "ui/main/inspection_controller.h"
#include "ui/main/preview_controller.h"
#include "ui/main/source_picker.h"
#include "ui/main/status_message.h"
#include "ui/main/stop_on_close.h"
#include "ui/main/task_actions.h"
#include "ui/main/task_view.h"
#include "ui/main/tray_status.h"
#include "ui/main/user_guide.h"
#include "ui/main/view_preferences.h"
#include "ui/models/ui_resources.h"
#include "ui/overview/overview_page.h"
#include "ui/pages/shard_locks_page.h"
#include "ui/pages/verify_page.h"

namespace syncscope::ui {

namespace {
constexpr int kDefaultWidth = 1280;
constexpr int kDefaultHeight = 800;
const char* const kGeometryKey = "window/geometry";
const char* const kStateKey = "window/state";
const char* const kNewTaskFolderKey = "tasks/newTaskFolder";
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    qRegisterMetaType<TaskFiles>();
    setWindowTitle(tr("SyncScope"));
    setWindowIcon(applicationIcon());
    resize(kDefaultWidth, kDefaultHeight);

    adapter_ = new EngineAdapter(this);
    actions_ = new TaskActions(this);
    taskView_ = new TaskView(this);
    fleet_ = new FleetController(this, taskView_, adapter_);
    overview_ = new OverviewPage(fleet_->model(), fleet_->notifications()->log(), this);
    tray_ = new TrayStatus(fleet_->model(), fleet_->notifications(), this);
    browse_ = new BrowseController(this, taskView_, adapter_, &fleet_->shown());
    preview_ = new PreviewController(this, taskView_, adapter_, &fleet_->shown());
    inspection_ = new InspectionController(this, taskView_->sourcePicker(), &fleet_->shown());
    stopOnClose_ = new StopOnClose(this, adapter_);
    preferences_ = new ViewPreferences(adapter_, this);
    stack_ = new QStackedWidget(this);
    stack_->addWidget(overview_);
    stack_->addWidget(taskView_);
    setCentralWidget(stack_);

    createMenus();
    createToolBar();
    commandState_ = new QLabel(this);
    commandState_->setToolTip(tr("The last command sent to the engine and its answer"));
    statusBar()->addPermanentWidget(commandState_);
    statusBar()->showMessage(tr("No task open"));

    connectFleet();
    connectTaskView();
    restoreWindowState();
}

MainWindow::~MainWindow() = default;

void MainWindow::connectFleet() {
    connect(fleet_, &FleetController::taskViewRequested, this, [this] { stack_->setCurrentWidget(taskView_); });
    connect(fleet_, &FleetController::overviewRequested, this, &MainWindow::showOverview);
    connect(fleet_, &FleetController::titleChanged, this, &QWidget::setWindowTitle);
    connect(fleet_, &FleetController::taskFilesOpened, recent_, &RecentTasksMenu::add);
    connect(fleet_, &FleetController::shownChannelChanged, this, &MainWindow::updateActions);
    connect(fleet_, &FleetController::statusMessage, statusBar(), &QStatusBar::showMessage);
    connect(fleet_, &FleetController::refreshed, tray_, &TrayStatus::update);

    connect(overview_, &OverviewPage::channelActivated, fleet_, &FleetController::openChannel);
    connect(overview_, &OverviewPage::newTaskRequested, this, &MainWindow::showNewTaskDialog);
    connect(overview_, &OverviewPage::openTaskRequested, this, &MainWindow::openTaskWithDialogs);
    connect(overview_, &OverviewPage::addRemoteRequested, fleet_, &FleetController::addRemoteEngineWithDialog);
    connect(overview_, &OverviewPage::addReplicaRequested, fleet_, &FleetController::addReplicaWithDialog);
    connect(overview_, &OverviewPage::addDmClusterRequested, fleet_, &FleetController::addDmClusterWithDialog);
    connect(overview_, &OverviewPage::dmCommandRequested, fleet_, &FleetController::runDmCommandWithConfirmation);
    connect(overview_, &OverviewPage::inspectRequested, inspection_, &InspectionController::inspectWithDialog);
    connect(overview_, &OverviewPage::recentTaskRequested, this,
            [this](const QString& taskPath, const QString& sourcePath) {
                emit openTaskRequested({taskPath, sourcePath, QString()});
            });
    connect(overview_, &OverviewPage::batchRequested, fleet_, &FleetController::runBatch);
    connect(overview_, &OverviewPage::removeRequested, fleet_, &FleetController::removeChannelWithConfirmation);
    connect(overview_, &OverviewPage::notificationSettingsRequested, fleet_, &FleetController::editNotifications);
}

void MainWindow::connectTaskView() {
    connect(adapter_, &EngineAdapter::snapshotChanged, this, &MainWindow::onSnapshot);
    connect(adapter_, &EngineAdapter::noticesArrived, taskView_, &TaskView::appendNotices);
    connect(adapter_, &EngineAdapter::noticesArrived, this, [this](const std::vector<task::Notice>& notices) {
        const auto& last = notices.back();
        QString news = QString::fromLatin1(task::stageName(last.stage));
        if (!last.message.empty()) {
            news += QStringLiteral(": ") + QString::fromStdString(last.message);
        }
        statusBar()->showMessage(news, kStatusMessageMilliseconds);
    });
    connect(adapter_, &EngineAdapter::logLinesArrived, taskView_, &TaskView::appendLogLines);
    connect(adapter_, &EngineAdapter::refreshed, taskView_, &TaskView::refreshAge);
    connect(adapter_, &EngineAdapter::commandStarted, this, [this](const QString& command) {
        commandState_->setText(tr("%1...").arg(command));
        updateActions();
    });
    connect(adapter_, &EngineAdapter::commandFinished, this, &MainWindow::onCommandFinished);
    connect(taskView_, &TaskView::retryRequested, adapter_, &EngineAdapter::resume);
    connect(taskView_, &TaskView::skipConfirmed, preview_, &PreviewController::skipWithPreview);
    // The DBA's unlock of a shard DDL lock: its preview first, then the unlock once confirmed.
    connect(taskView_->shardLocksPage(), &ShardLocksPage::unlockRequested, adapter_,
            &EngineAdapter::previewShardUnlock);
    connect(adapter_, &EngineAdapter::shardUnlockPreviewed, this,
            [this](const QString& target, const task::CommandResult& preview) {
                const QString text = QString::fromStdString(preview.reason);
                if (!preview.accepted) {
                    commandState_->setText(tr("Unlock refused: %1").arg(text));
                    return;
                }
                if (QMessageBox::question(this, tr("Unlock the shard DDL lock on %1").arg(target),
                                          tr("%1.\n\nUnlock now? The unlock is written to the audit log.").arg(text)) ==
                    QMessageBox::Yes) {
                    adapter_->unlockShardDdl(target);
                }
            });
    // The source picked for a task with several sources: Verify reads it, and an open browser turns to it.
    // Another channel shown: an open browser turns to its binlog, or to none.
    connect(fleet_, &FleetController::shownChannelChanged, browse_, &BrowseController::followSource);
    connect(taskView_->sourcePicker(), &SourcePicker::sourceChosen, this, [this](const QString& file) {
        taskView_->verifyPage()->setTask(fleet_->shown().files.taskPath, file, taskView_->sourcePicker()->chosenTask());
        browse_->followSource();
    });

    connect(actions_->start(), &QAction::triggered, adapter_, &EngineAdapter::start);
    connect(actions_->pause(), &QAction::triggered, adapter_, &EngineAdapter::pause);
    connect(actions_->resume(), &QAction::triggered, adapter_, &EngineAdapter::resume);
    connect(actions_->stop(), &QAction::triggered, adapter_, &EngineAdapter::stop);
    connect(actions_->resumeFrom(), &QAction::triggered, preview_, &PreviewController::showResumeFrom);
    connect(actions_->skip(), &QAction::triggered, preview_, &PreviewController::askToSkip);

    connect(browse_, &BrowseController::resumeFromRequested, preview_, &PreviewController::resumeFromWithPreview);
    connect(browse_, &BrowseController::statusMessage, statusBar(), &QStatusBar::showMessage);
    connect(inspection_, &InspectionController::browseWindowRequested, browse_, &BrowseController::browseSkipWindow);
    connect(inspection_, &InspectionController::statusMessage, statusBar(), &QStatusBar::showMessage);
    connect(preview_, &PreviewController::resumeFromRefused, this, [this](const QString& text) {
        commandState_->setText(text);
        statusBar()->showMessage(text, kStatusMessageMilliseconds);
        browse_->showRefusal(text);
        emit resumeFromRefused(text);
    });
}

void MainWindow::createMenus() {
    QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
    fileMenu->setToolTipsVisible(true);
    QAction* newTask = fileMenu->addAction(tr("&New task..."), this, &MainWindow::showNewTaskDialog);
    newTask->setShortcut(QKeySequence::New);
    newTask->setToolTip(tr("Write a DM task file and source file after testing both connections, then open it"));
    QAction* open = fileMenu->addAction(tr("&Open task..."), this, &MainWindow::openTaskWithDialogs);
    open->setShortcut(QKeySequence::Open);
    open->setToolTip(tr("Open a DM task file and its source file"));
    QAction* addRemote =
        fileMenu->addAction(tr("Add &remote engine..."), fleet_, &FleetController::addRemoteEngineWithDialog);
    addRemote->setToolTip(tr("Watch and control a `syncscope-cli run --listen` on another machine"));
    QAction* addReplica =
        fileMenu->addAction(tr("Add &MariaDB replica..."), fleet_, &FleetController::addReplicaWithDialog);
    addReplica->setToolTip(tr("Watch and control a MariaDB replica's channels (SHOW ALL SLAVES STATUS)"));
    QAction* addDmCluster =
        fileMenu->addAction(tr("Add &DM cluster..."), fleet_, &FleetController::addDmClusterWithDialog);
    addDmCluster->setToolTip(tr("Watch and control a TiDB DM cluster's tasks through DM's OpenAPI"));
    QAction* openWorkspaceAction =
        fileMenu->addAction(tr("Open &workspace..."), fleet_, &FleetController::openWorkspaceWithDialog);
    openWorkspaceAction->setToolTip(tr("Add every channel of a saved workspace file"));
    QAction* saveWorkspaceAction =
        fileMenu->addAction(tr("&Save workspace as..."), fleet_, &FleetController::saveWorkspaceWithDialog);
    saveWorkspaceAction->setToolTip(tr("Write the set of channels to a file, to open it on another desk"));
    recent_ = new RecentTasksMenu(fileMenu->addMenu(tr("&Recent tasks")), overview_, this);
    connect(recent_, &RecentTasksMenu::openRequested, this, &MainWindow::openTaskRequested);
    fileMenu->addSeparator();
    QAction* quit = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setToolTip(tr("Close SyncScope (a running task is stopped first)"));

    QMenu* taskMenu = menuBar()->addMenu(tr("&Task"));
    taskMenu->setToolTipsVisible(true);
    taskMenu->addActions({actions_->start(), actions_->pause(), actions_->resume(), actions_->stop()});
    taskMenu->addSeparator();
    taskMenu->addActions({actions_->resumeFrom(), actions_->skip()});
    QAction* stopAt = taskMenu->addAction(tr("Stop at a &point..."), browse_, &BrowseController::askStopPoint);
    stopAt->setToolTip(tr("Pause the task by itself at a binlog position, a GTID or a time (like START SLAVE UNTIL)"));

    QMenu* toolsMenu = menuBar()->addMenu(tr("T&ools"));
    toolsMenu->setToolTipsVisible(true);
    QAction* inspect =
        toolsMenu->addAction(tr("&Inspect checkpoints..."), inspection_, &InspectionController::inspectShownTask);
    inspect->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    inspect->setToolTip(
        tr("Read any downstream's checkpoint tables (ours or DM's) read-only and flag points a "
           "resume would get wrong; with a task open, its own are filled in"));
    QAction* browseEvents = toolsMenu->addAction(tr("&Browse binlog events..."), this, &MainWindow::showEventBrowser);
    browseEvents->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    browseEvents->setToolTip(
        tr("Page through the task's upstream binlog by transaction, filter by table or key, and "
           "resume from a chosen transaction"));

    QMenu* viewMenu = menuBar()->addMenu(tr("&View"));
    QAction* overviewAction = viewMenu->addAction(tr("&Overview"), this, &MainWindow::showOverview);
    overviewAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    overviewAction->setToolTip(tr("Every channel of the workspace, one row each"));
    preferences_->addMenus(viewMenu);

    QMenu* helpMenu = menuBar()->addMenu(tr("&Help"));
    helpMenu->setToolTipsVisible(true);
    QAction* guide = helpMenu->addAction(tr("&User guide"), this, &MainWindow::showUserGuide);
    guide->setShortcut(QKeySequence::HelpContents);
    guide->setToolTip(tr("The manual: every page and mark of the GUI, and step-by-step recipes"));
    QAction* about = helpMenu->addAction(tr("&About SyncScope"), this,
                                         [this] { QMessageBox::about(this, tr("About SyncScope"), aboutText()); });
    about->setToolTip(tr("Version, license and what SyncScope is for"));
}

void MainWindow::createToolBar() {
    QToolBar* bar = addToolBar(tr("Task"));
    bar->setObjectName(QStringLiteral("taskToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    bar->toggleViewAction()->setToolTip(tr("Show or hide the task toolbar"));
    QAction* overview = bar->addAction(tr("Overview"), this, &MainWindow::showOverview);
    overview->setToolTip(tr("Back to every channel of the workspace (Ctrl+0)"));
    bar->addSeparator();
    bar->addActions({actions_->start(), actions_->pause(), actions_->resume(), actions_->stop()});
    bar->addSeparator();
    bar->addActions({actions_->resumeFrom(), actions_->skip()});
}

UserGuideWindow* MainWindow::showUserGuide() {
    const QString path = findUserGuide();
    if (path.isEmpty()) {
        QMessageBox::information(
            this, tr("User guide"),
            tr("The user guide was not found. Looked for:\n%1").arg(userGuideCandidates().join(QLatin1Char('\n'))));
        return nullptr;
    }
    if (!userGuide_) {
        userGuide_ = new UserGuideWindow(path, this);
    }
    userGuide_->show();
    userGuide_->raise();
    userGuide_->activateWindow();
    return userGuide_;
}

void MainWindow::attachTask(std::shared_ptr<task::TaskControl> task, const TaskFiles& files) {
    fleet_->attachTask(std::move(task), files);
}

void MainWindow::detachTask() {
    fleet_->detachTask();
}

void MainWindow::setLogRing(std::shared_ptr<LogRing> ring) {
    adapter_->setLogRing(std::move(ring));
}

void MainWindow::onSnapshot(std::shared_ptr<const task::StatusSnapshot> snapshot) {
    taskView_->setSnapshot(snapshot);
    if (snapshot) {
        browse_->followSnapshot(*snapshot);
    }
    updateActions();
    stopOnClose_->followSnapshot(snapshot.get());
}

void MainWindow::onCommandFinished(const QString& command, const task::CommandResult& result) {
    // The engine took the command; what became of it the stage says (a start accepted may still fail).
    // Shown once, in the permanent label: the message area beside it is for the stage's news.
    const QString text = result.accepted ? tr("%1: accepted").arg(command)
                                         : tr("%1 refused: %2").arg(command, QString::fromStdString(result.reason));
    commandState_->setText(text);
    updateActions();
}

void MainWindow::updateActions() {
    const auto snapshot = adapter_->lastSnapshot();
    std::optional<task::Stage> stage;
    if (adapter_->hasTask()) {
        stage = snapshot ? snapshot->stage : task::Stage::New;
    }
    const bool loading = snapshot && snapshot->load && !snapshot->load->finished;
    actions_->updateFor(stage, snapshot && snapshot->failedEvent.has_value(), adapter_->commandsInFlight() > 0,
                        loading);
    if (!adapter_->hasTask()) {
        statusBar()->showMessage(tr("No task open"));
    } else if (statusBar()->currentMessage() == tr("No task open")) {
        statusBar()->clearMessage();  // it stayed below an open task's view
    }
}

NewTaskDialog* MainWindow::showNewTaskDialog() {
    auto* dialog = new NewTaskDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const QString folder = QSettings().value(kNewTaskFolderKey).toString();
    if (!folder.isEmpty() && QFileInfo(folder).isDir()) {
        dialog->setDirectory(folder);
    }
    connect(dialog, &NewTaskDialog::taskSaved, this,
            [this, dialog](const QString& taskPath, const QString& sourcePath) {
                QSettings().setValue(kNewTaskFolderKey, dialog->directory());
                emit openTaskRequested({taskPath, sourcePath, QString()});
            });
    dialog->open();
    return dialog;
}

CheckpointInspectionPage* MainWindow::showCheckpointInspection() {
    return inspection_->showInspection();
}

EventBrowserPage* MainWindow::showEventBrowser() {
    return browse_->showEventBrowser();
}

EventBrowserLinks* MainWindow::browserLinks() const {
    return browse_->links();
}

void MainWindow::openTaskWithDialogs() {
    TaskFiles files;
    files.taskPath = QFileDialog::getOpenFileName(this, tr("Open a DM task file"), {}, tr("YAML (*.yaml *.yml)"));
    if (files.taskPath.isEmpty()) {
        return;
    }
    // A task with several mysql-instances needs one source file per source: say which, and take several at once.
    const QStringList sources = QFileDialog::getOpenFileNames(
        this, sourceFilesPrompt(files.taskPath), QFileInfo(files.taskPath).absolutePath(), tr("YAML (*.yaml *.yml)"));
    if (sources.isEmpty()) {
        return;
    }
    files.sourcePath = sourceField(sources);
    emit openTaskRequested(files);
}

QSystemTrayIcon* MainWindow::tray() const {
    return tray_->icon();
}

void MainWindow::showOverview() {
    stack_->setCurrentWidget(overview_);
    setWindowTitle(tr("SyncScope"));
}

bool MainWindow::overviewShown() const {
    return stack_->currentWidget() == overview_;
}

void MainWindow::closeEvent(QCloseEvent* event) {
    // Only a task of this process is stopped: closing the window never stops a remote engine or a replica.
    if (!stopOnClose_->mayClose(fleet_->shownIsLocal())) {
        event->ignore();
        return;
    }
    saveWindowState();
    event->accept();
}

void MainWindow::saveWindowState() {
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState());
    inspection_->saveGeometry();
}

void MainWindow::restoreWindowState() {
    QSettings settings;
    restoreGeometry(settings.value(kGeometryKey).toByteArray());
    restoreState(settings.value(kStateKey).toByteArray());
    preferences_->restore();
}

}  // namespace syncscope::ui
