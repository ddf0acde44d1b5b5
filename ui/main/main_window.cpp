#include "ui/main/main_window.h"

#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressDialog>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>

#include "ui/browse/event_browser_links.h"
#include "ui/dialogs/new_task_dialog.h"
#include "ui/dialogs/resume_from_dialog.h"
#include "ui/engine/engine_adapter.h"
#include "ui/fleet/fleet_model.h"
#include "ui/fleet/multi_source_group.h"
#include "ui/inspect/checkpoint_inspection_page.h"
#include "ui/inspect/task_inspection_request.h"
#include "ui/main/color_scheme.h"
#include "ui/main/source_picker.h"
#include "ui/main/task_actions.h"
#include "ui/main/task_view.h"
#include "ui/main/user_guide.h"
#include "ui/models/recent_tasks.h"
#include "ui/models/ui_resources.h"
#include "ui/overview/overview_page.h"
#include "ui/pages/failed_event_panel.h"
#include "ui/pages/verify_page.h"

namespace syncscope::ui {

namespace {
constexpr int kDefaultWidth = 1280;
constexpr int kDefaultHeight = 800;
constexpr int kStatusMessageMilliseconds = 8000;
const char* const kGeometryKey = "window/geometry";
const char* const kStateKey = "window/state";
const char* const kRecentKey = "tasks/recent";
const char* const kRefreshKey = "view/refreshHz";
const char* const kColorSchemeKey = "view/colorScheme";
const char* const kNewTaskFolderKey = "tasks/newTaskFolder";
const char* const kInspectionGeometryKey = "inspect/geometry";
constexpr int kInspectionWidth = 1280;
constexpr int kInspectionHeight = 640;

bool isActive(task::Stage stage) {
    return stage == task::Stage::Running || stage == task::Stage::Paused;
}
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    qRegisterMetaType<TaskFiles>();
    setWindowTitle(tr("SyncScope"));
    setWindowIcon(applicationIcon());
    resize(kDefaultWidth, kDefaultHeight);

    adapter_ = new EngineAdapter(this);
    actions_ = new TaskActions(this);

    createFleet();
    taskView_ = new TaskView(this);
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
    connect(taskView_, &TaskView::skipConfirmed, this, &MainWindow::skipWithPreview);
    // The source picked for a task with several sources: Verify reads it, and an open browser turns to it.
    connect(taskView_->sourcePicker(), &SourcePicker::sourceChosen, this, [this](const QString& file) {
        taskView_->verifyPage()->setTask(files_.taskPath, file, taskView_->sourcePicker()->chosenTask());
        if (browser_ && browser_->isVisible()) {
            showEventBrowser();
        }
    });
    browserLinks_ =
        new EventBrowserLinks(taskView_->ruler(), taskView_->tablesPage(), taskView_->failedEventPanel(), this);
    connect(browserLinks_, &EventBrowserLinks::browseRequested, this,
            [this](const browse::BrowsePoint& point, const QString& why) {
                browseAt(QString::fromStdString(point.file), point.offset, why);
            });

    connect(actions_->start(), &QAction::triggered, adapter_, &EngineAdapter::start);
    connect(actions_->pause(), &QAction::triggered, adapter_, &EngineAdapter::pause);
    connect(actions_->resume(), &QAction::triggered, adapter_, &EngineAdapter::resume);
    connect(actions_->stop(), &QAction::triggered, adapter_, &EngineAdapter::stop);
    connect(actions_->resumeFrom(), &QAction::triggered, this, &MainWindow::showResumeFrom);
    connect(actions_->skip(), &QAction::triggered, this, &MainWindow::skipWithConfirmation);

    restoreWindowState();
}

MainWindow::~MainWindow() = default;

void MainWindow::createMenus() {
    QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
    fileMenu->setToolTipsVisible(true);
    QAction* newTask = fileMenu->addAction(tr("&New task..."), this, &MainWindow::showNewTaskDialog);
    newTask->setShortcut(QKeySequence::New);
    newTask->setToolTip(tr("Write a DM task file and source file after testing both connections, then open it"));
    QAction* open = fileMenu->addAction(tr("&Open task..."), this, &MainWindow::openTaskWithDialogs);
    open->setShortcut(QKeySequence::Open);
    open->setToolTip(tr("Open a DM task file and its source file"));
    QAction* addRemote = fileMenu->addAction(tr("Add &remote engine..."), this, &MainWindow::addRemoteEngineWithDialog);
    addRemote->setToolTip(tr("Watch and control a `syncscope-cli run --listen` on another machine"));
    QAction* addReplica = fileMenu->addAction(tr("Add &MariaDB replica..."), this, &MainWindow::addReplicaWithDialog);
    addReplica->setToolTip(tr("Watch and control a MariaDB replica's channels (SHOW ALL SLAVES STATUS)"));
    QAction* openWorkspaceAction = fileMenu->addAction(tr("Open &workspace..."), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a workspace"), {},
                                                          tr("SyncScope workspace (*.syncscope.json *.json)"));
        if (!path.isEmpty()) {
            openWorkspace(path);
        }
    });
    openWorkspaceAction->setToolTip(tr("Add every channel of a saved workspace file"));
    QAction* saveWorkspaceAction = fileMenu->addAction(tr("&Save workspace as..."), this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Save the workspace"), {},
                                                          tr("SyncScope workspace (*.syncscope.json)"));
        QString error;
        if (!path.isEmpty() && !saveWorkspaceAs(path, &error)) {
            QMessageBox::warning(this, tr("Cannot save the workspace"), error);
        }
    });
    saveWorkspaceAction->setToolTip(tr("Write the set of channels to a file, to open it on another desk"));
    recentMenu_ = fileMenu->addMenu(tr("&Recent tasks"));
    recentMenu_->setToolTipsVisible(true);
    rebuildRecentMenu();
    fileMenu->addSeparator();
    QAction* quit = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setToolTip(tr("Close SyncScope (a running task is stopped first)"));

    QMenu* taskMenu = menuBar()->addMenu(tr("&Task"));
    taskMenu->setToolTipsVisible(true);
    taskMenu->addActions({actions_->start(), actions_->pause(), actions_->resume(), actions_->stop()});
    taskMenu->addSeparator();
    taskMenu->addActions({actions_->resumeFrom(), actions_->skip()});
    QAction* stopAt = taskMenu->addAction(tr("Stop at a &point..."), this, &MainWindow::askStopPoint);
    stopAt->setToolTip(tr("Pause the task by itself at a binlog position, a GTID or a time (like START SLAVE UNTIL)"));

    QMenu* toolsMenu = menuBar()->addMenu(tr("T&ools"));
    toolsMenu->setToolTipsVisible(true);
    QAction* inspect = toolsMenu->addAction(tr("&Inspect checkpoints..."), this, [this] {
        CheckpointInspectionPage* page = showCheckpointInspection();
        if (page->isBusy()) {
            return;
        }
        // With a task open, its own checkpoint table, target and upstream are filled in.
        std::optional<inspect::InspectionRequest> forTask;
        if (!files_.taskPath.isEmpty()) {
            try {
                forTask = inspectionRequestForTask(files_.taskPath.toStdString(),
                                                   taskView_->sourcePicker()->chosenFile().toStdString());
            } catch (const std::exception& e) {
                statusBar()->showMessage(tr("Cannot fill in the task's checkpoints: %1").arg(e.what()),
                                         kStatusMessageMilliseconds);
            }
        }
        QTimer::singleShot(0, page, [page, forTask] {
            if (forTask) {
                page->inspectWithDialog(*forTask);
            } else {
                page->inspectWithDialog();
            }
        });
    });
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
    QMenu* refreshMenu = viewMenu->addMenu(tr("&Refresh rate"));
    refreshMenu->setToolTipsVisible(true);
    auto* rates = new QActionGroup(this);
    for (int hz = EngineAdapter::kMinRefreshHz; hz <= EngineAdapter::kMaxRefreshHz; hz += 2) {
        QAction* rate = refreshMenu->addAction(tr("%1 per second").arg(hz));
        rate->setCheckable(true);
        rate->setToolTip(tr("Pull the engine's status %1 times a second").arg(hz));
        rate->setChecked(hz == adapter_->refreshRate());
        rates->addAction(rate);
        connect(rate, &QAction::triggered, this, [this, hz] {
            adapter_->setRefreshRate(hz);
            QSettings().setValue(kRefreshKey, hz);
        });
    }

    QMenu* colorsMenu = viewMenu->addMenu(tr("&Colours"));
    colorsMenu->setToolTipsVisible(true);
    auto* schemes = new QActionGroup(this);
    const ColorScheme saved = colorSchemeFromName(QSettings().value(kColorSchemeKey).toString());
    const std::pair<ColorScheme, QString> choices[] = {{ColorScheme::System, tr("&Desktop's palette")},
                                                       {ColorScheme::Light, tr("&Light")},
                                                       {ColorScheme::Dark, tr("D&ark")}};
    for (const auto& [scheme, label] : choices) {
        QAction* choice = colorsMenu->addAction(label);
        choice->setCheckable(true);
        choice->setChecked(scheme == saved);
        choice->setToolTip(scheme == ColorScheme::System
                               ? tr("Use the desktop's own colours")
                               : tr("Draw SyncScope in %1 colours").arg(label).remove(QLatin1Char('&')));
        schemes->addAction(choice);
        connect(choice, &QAction::triggered, this, [scheme] {
            QSettings().setValue(kColorSchemeKey, colorSchemeName(scheme));
            applyColorScheme(scheme);
        });
    }

    QMenu* helpMenu = menuBar()->addMenu(tr("&Help"));
    helpMenu->setToolTipsVisible(true);
    QAction* guide = helpMenu->addAction(tr("&User guide"), this, &MainWindow::showUserGuide);
    guide->setShortcut(QKeySequence::HelpContents);
    guide->setToolTip(tr("The manual: every page and mark of the GUI, and step-by-step recipes"));
    QAction* about = helpMenu->addAction(tr("&About SyncScope"), this, &MainWindow::showAbout);
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

void MainWindow::showAbout() {
    QMessageBox::about(this, tr("About SyncScope"), aboutText());
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
    files_ = files;
    if (!task) {
        detachTask();
        return;
    }
    ChannelSpec spec;
    spec.kind = ChannelKind::LocalTask;
    spec.taskPath = files.taskPath;
    spec.sourcePath = files.sourcePath;
    if (fleet_->rowOfTask(task.get()) < 0) {
        fleet_->addGroup(localTaskGroup(spec, task));
        fleet_->refresh();
    }
    taskView_->clear();
    taskView_->setAuditPath(files.auditPath);
    SourcePicker* picker = taskView_->sourcePicker();
    picker->setTask(files.sourcePath, task);
    taskView_->verifyPage()->setTask(files.taskPath, picker->chosenFile(), picker->chosenTask());
    stack_->setCurrentWidget(taskView_);
    shown_ = task;
    adapter_->attachTask(std::move(task));
    if (!files.taskPath.isEmpty()) {
        addRecentTask(files);
        setWindowTitle(tr("%1 - SyncScope").arg(QFileInfo(files.taskPath).fileName()));
    }
    updateActions();
}

void MainWindow::detachTask() {
    taskView_->verifyPage()->setTask({}, {}, nullptr);
    taskView_->sourcePicker()->clear();
    adapter_->detachTask();
    if (shown_) {
        const int row = fleet_->rowOfTask(shown_.get());
        if (row >= 0 && fleet_->rowAt(row).kind == ChannelKind::LocalTask) {
            fleet_->removeGroup(fleet_->rowAt(row).group);
        }
        shown_.reset();
    }
    taskView_->clear();
    showOverview();
    updateActions();
}

void MainWindow::setLogRing(std::shared_ptr<LogRing> ring) {
    adapter_->setLogRing(std::move(ring));
}

void MainWindow::onSnapshot(std::shared_ptr<const task::StatusSnapshot> snapshot) {
    taskView_->setSnapshot(snapshot);
    if (browser_ && snapshot) {
        browser_->setAppliedPoint(committedDownstream(*snapshot));
    }
    updateActions();
    if (closeWhenStopped_ && snapshot && !isActive(snapshot->stage)) {
        close();
    }
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

void MainWindow::showResumeFrom() {
    ResumeFromDialog dialog(adapter_->lastSnapshot(), this);
    if (dialog.exec() == QDialog::Accepted) {
        resumeFromWithPreview(dialog.preview().target, tr("as chosen in Resume from"));
    }
}

void MainWindow::skipWithConfirmation() {
    taskView_->failedEventPanel()->askToSkip();
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
    if (!inspection_) {
        inspection_ = new CheckpointInspectionPage(this);
        inspection_->setWindowFlag(Qt::Window);
        inspection_->setWindowTitle(tr("Checkpoint inspection - SyncScope"));
        inspection_->resize(kInspectionWidth, kInspectionHeight);
        inspection_->restoreGeometry(QSettings().value(kInspectionGeometryKey).toByteArray());
        connect(inspection_, &CheckpointInspectionPage::browseWindowRequested, this,
                [this](const SkipWindowBrowse& window) { openSkipWindow(showEventBrowser(), window); });
    }
    inspection_->show();
    inspection_->raise();
    inspection_->activateWindow();
    return inspection_;
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

QStringList MainWindow::recentTasks() const {
    return QSettings().value(kRecentKey).toStringList();
}

void MainWindow::addRecentTask(const TaskFiles& files) {
    QStringList recent = recentTasks();
    const QString entry = recentTaskEntry(files.taskPath, files.sourcePath);
    recent.removeAll(entry);
    recent.prepend(entry);
    while (recent.size() > kMaxRecentTasks) {
        recent.removeLast();
    }
    QSettings().setValue(kRecentKey, recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    const QStringList recent = recentTasks();
    overview_->setRecentTasks(recent);
    for (const RecentTask& task : recentTasksOf(recent)) {
        QAction* action = recentMenu_->addAction(task.label);
        action->setToolTip(task.toolTip);
        connect(action, &QAction::triggered, this, [this, task] {
            emit openTaskRequested({task.taskPath, task.sourcePath, QString()});
        });
    }
    recentMenu_->setEnabled(!recent.isEmpty());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    const auto snapshot = adapter_->lastSnapshot();
    // Only a task of this process is stopped: closing the window never stops a remote engine or a replica.
    const int shownRow = shown_ ? fleet_->rowOfTask(shown_.get()) : -1;
    const bool localShown = shownRow < 0 || fleet_->rowAt(shownRow).kind == ChannelKind::LocalTask;
    if (adapter_->hasTask() && localShown && snapshot && isActive(snapshot->stage)) {
        // Stop gracefully (checkpoints flushed at a transaction boundary) and close when the engine says so.
        event->ignore();
        if (!closeWhenStopped_) {
            closeWhenStopped_ = true;
            adapter_->stop();
            stopping_ =
                new QProgressDialog(tr("Stopping the task at a transaction boundary..."), tr("Close now"), 0, 0, this);
            stopping_->setWindowTitle(tr("Stopping"));
            stopping_->setToolTip(tr("Closing without waiting leaves the task's last checkpoints unflushed"));
            stopping_->setMinimumDuration(0);
            connect(stopping_, &QProgressDialog::canceled, this, [this] {
                adapter_->detachTask();
                close();
            });
            stopping_->show();
            QTimer::singleShot(kStopTimeoutMilliseconds, this, [this] {
                if (closeWhenStopped_ && stopping_) {
                    stopping_->setLabelText(tr("The task has not stopped after %1 s; it may be waiting on the "
                                               "network. Keep waiting or close now.")
                                                .arg(kStopTimeoutMilliseconds / 1000));
                }
            });
        }
        return;
    }
    if (stopping_) {
        stopping_->hide();
    }
    saveWindowState();
    event->accept();
}

void MainWindow::saveWindowState() {
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, saveState());
    if (inspection_) {
        settings.setValue(kInspectionGeometryKey, inspection_->saveGeometry());
    }
}

void MainWindow::restoreWindowState() {
    QSettings settings;
    restoreGeometry(settings.value(kGeometryKey).toByteArray());
    restoreState(settings.value(kStateKey).toByteArray());
    const ColorScheme scheme = colorSchemeFromName(settings.value(kColorSchemeKey).toString());
    if (scheme != ColorScheme::System) {
        applyColorScheme(scheme);
    }
    if (settings.contains(kRefreshKey)) {
        adapter_->setRefreshRate(settings.value(kRefreshKey).toInt());
    }
}

}  // namespace syncscope::ui
