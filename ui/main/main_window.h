// The main window of the SyncScope GUI: the frame that holds the overview and the task view, the menus, the
// toolbar and the status bar. It composes the controllers that do the work: the fleet and the shown channel
// (FleetController), the event browser (BrowseController), the skip and resume-from previews
// (PreviewController), the checkpoint inspection (InspectionController), the recent tasks, the view
// preferences, the tray icon and the graceful stop on close. A task is attached as a TaskControl (the engine's
// Task, or any other implementation), so the window never depends on how the task was built.
#pragma once

#include <QMainWindow>
#include <QTimer>
#include <memory>

#include "engine/common/log_ring.h"
#include "engine/task/task_control.h"
#include "ui/main/recent_tasks_menu.h"
#include "ui/main/task_files.h"

class QLabel;
class QStackedWidget;
class QSystemTrayIcon;

namespace syncscope::ui {

class BrowseController;
class CheckpointInspectionPage;
class EngineAdapter;
class EventBrowserLinks;
class EventBrowserPage;
class FleetController;
class FleetModel;
class InspectionController;
class NewTaskDialog;
class NotificationCenter;
class OverviewPage;
class PreviewController;
class StopOnClose;
class TaskActions;
class TaskView;
class TrayStatus;
class UserGuideWindow;
class ViewPreferences;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    static constexpr int kMaxRecentTasks = RecentTasksMenu::kMaxRecentTasks;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Adds the task to the overview as a local channel and shows it in the task view.
    void attachTask(std::shared_ptr<task::TaskControl> task, const TaskFiles& files = {});
    // Closes the channel shown in the task view (a local task stops gracefully) and shows the overview.
    void detachTask();
    void setLogRing(std::shared_ptr<LogRing> ring);

    EngineAdapter* adapter() const { return adapter_; }
    TaskView* taskView() const { return taskView_; }
    TaskActions* actions() const { return actions_; }
    // The controllers the window composes, for app/gui and the tests.
    FleetController* fleetController() const { return fleet_; }
    RecentTasksMenu* recentTasksMenu() const { return recent_; }

    // File > New task: opens the dialog (not modal); a saved task is opened through openTaskRequested.
    NewTaskDialog* showNewTaskDialog();
    // Tools > Inspect checkpoints: the inspection window (one, kept), shown and raised.
    CheckpointInspectionPage* showCheckpointInspection();
    // Tools > Browse binlog events: the event browser window (one, kept) over the task's upstream.
    EventBrowserPage* showEventBrowser();
    // Help > User guide: the manual's user guide in a window of its own (one, kept), or null when no copy
    // of the manual is found (the places looked in are shown).
    UserGuideWindow* showUserGuide();
    EventBrowserLinks* browserLinks() const;

    // The overview: every channel of the workspace (the start page; FleetController keeps them).
    OverviewPage* overview() const { return overview_; }
    QSystemTrayIcon* tray() const;
    void showOverview();
    bool overviewShown() const;

signals:
    // File > Open task or a recent task: whoever builds tasks answers with attachTask().
    void openTaskRequested(const syncscope::ui::TaskFiles& files);
    // A resume-from asked for in a stage the task does not take it in: refused before any preview.
    void resumeFromRefused(const QString& reason);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void connectFleet();
    void connectTaskView();
    void createMenus();
    void createToolBar();
    void openTaskWithDialogs();
    void onSnapshot(std::shared_ptr<const task::StatusSnapshot> snapshot);
    void onCommandFinished(const QString& command, const task::CommandResult& result);
    void updateActions();
    void saveWindowState();
    void restoreWindowState();

    EngineAdapter* adapter_ = nullptr;
    TaskActions* actions_ = nullptr;
    TaskView* taskView_ = nullptr;
    FleetController* fleet_ = nullptr;
    OverviewPage* overview_ = nullptr;
    QStackedWidget* stack_ = nullptr;
    TrayStatus* tray_ = nullptr;
    BrowseController* browse_ = nullptr;
    PreviewController* preview_ = nullptr;
    InspectionController* inspection_ = nullptr;
    StopOnClose* stopOnClose_ = nullptr;
    RecentTasksMenu* recent_ = nullptr;
    ViewPreferences* preferences_ = nullptr;
    QLabel* commandState_ = nullptr;
    UserGuideWindow* userGuide_ = nullptr;  // Help > User guide: one window, kept
};

}  // namespace syncscope::ui
