// The main window of the SyncScope GUI: the frame that holds the task views, the menus and the task's
// controls. A task is attached as a TaskControl (the engine's Task, or any other implementation), so the
// window never depends on how the task was built.
#pragma once

#include <QMainWindow>
#include <QTimer>
#include <atomic>
#include <functional>
#include <memory>

#include "engine/browse/binlog_history.h"
#include "engine/common/log_ring.h"
#include "engine/task/task_control.h"
#include "engine/verify/window_preview.h"
#include "ui/fleet/batch_plan.h"
#include "ui/fleet/channel_group.h"

class QLabel;
class QMenu;
class QProgressDialog;
class QStackedWidget;
class QSystemTrayIcon;

namespace syncscope::ui {

class CheckpointInspectionPage;
class EngineAdapter;
class EventBrowserLinks;
class EventBrowserPage;
class FleetModel;
class NewTaskDialog;
class NotificationCenter;
class OverviewPage;
class TaskActions;
class TaskView;
class UserGuideWindow;
class WindowPreviewDialog;
struct WindowPreviewAction;

// The files a task was opened from.
struct TaskFiles {
    QString taskPath;
    QString sourcePath;
    QString auditPath;  // the engine's audit log (JSON Lines); empty when it has none
};

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    static constexpr int kMaxRecentTasks = 8;
    static constexpr int kStopTimeoutMilliseconds = 30000;

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
    QStringList recentTasks() const;
    void addRecentTask(const TaskFiles& files);

    // File > New task: opens the dialog (not modal); a saved task is opened through openTaskRequested.
    NewTaskDialog* showNewTaskDialog();
    // Tools > Inspect checkpoints: the inspection window (one, kept), shown and raised.
    CheckpointInspectionPage* showCheckpointInspection();
    // Tools > Browse binlog events: the event browser window (one, kept) over the task's upstream.
    EventBrowserPage* showEventBrowser();
    // Help > User guide: the manual's user guide in a window of its own (one, kept), or null when no copy
    // of the manual is found (the places looked in are shown).
    UserGuideWindow* showUserGuide();
    // The browser opened at a point the GUI shows (a ruler marker, the failed event, a table point).
    void browseAt(const QString& file, qulonglong pos, const QString& why);
    EventBrowserLinks* browserLinks() const { return browserLinks_; }

    // The fleet: every channel of the workspace on the overview (the start page).
    FleetModel* fleet() const { return fleet_; }
    OverviewPage* overview() const { return overview_; }
    NotificationCenter* notifications() const { return notifications_; }
    QSystemTrayIcon* tray() const { return tray_; }
    void setLocalTaskOpener(LocalTaskOpener opener) { opener_ = std::move(opener); }
    // Opens a workspace entry (or finds the one already open with the same key); its group index, or
    // -1 when a local task cannot be opened (the reason is shown).
    int addChannel(const ChannelSpec& spec);
    // Shows one channel of the overview (a FleetModel row) in the task view.
    void openChannel(int row);
    void showOverview();
    bool overviewShown() const;
    // Pause or resume the rows after one confirmation; the confirmer answers in tests (default: a dialog).
    void runBatch(BatchCommand command, const QList<int>& rows);
    void setBatchConfirmer(std::function<bool(const QString& text)> confirmer) { confirmBatch_ = std::move(confirmer); }
    BatchRunner* batchRunner() const { return batch_; }
    // The workspace of the last session (QSettings), kept from now on as channels come and go.
    void restoreWorkspace();
    bool saveWorkspaceAs(const QString& path, QString* error);
    void openWorkspace(const QString& path);
    void refreshFleet();  // the fleet timer calls it; tests call it directly
    QTimer* fleetTimer() { return &fleetTimer_; }

signals:
    // File > Open task or a recent task: whoever builds tasks answers with attachTask().
    void openTaskRequested(const syncscope::ui::TaskFiles& files);
    // A resume-from asked for in a stage the task does not take it in: refused before any preview.
    void resumeFromRefused(const QString& reason);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createMenus();
    void createToolBar();
    void showAbout();
    void openTaskWithDialogs();
    void rebuildRecentMenu();
    void onSnapshot(std::shared_ptr<const task::StatusSnapshot> snapshot);
    void onCommandFinished(const QString& command, const task::CommandResult& result);
    void updateActions();
    void showResumeFrom();
    void skipWithConfirmation();
    void resumeFromBrowser(const task::ResumeTarget& target, const QString& description);
    void askStopPoint();
    static browse::BrowsePoint committedDownstream(const task::StatusSnapshot& snapshot);
    static task::PointView committedPoint(const task::StatusSnapshot& snapshot);
    // main_window_preview.cpp: the rows a skip or a resume-from leaves out (or applies again), first.
    void skipWithPreview();
    void resumeFromWithPreview(const task::ResumeTarget& target, const QString& description);
    void refuseResumeFrom(const QString& text);
    QString replaySqlPath(const std::string& taskName) const;
    WindowPreviewDialog* previewDialog(std::function<verify::WindowPreview(const std::atomic<bool>*)> job,
                                       WindowPreviewAction action);
    void saveWindowState();
    void restoreWindowState();
    void createFleet();
    void addRemoteEngineWithDialog();
    void addReplicaWithDialog();
    void updateTray();
    void persistWorkspace();

    EngineAdapter* adapter_ = nullptr;
    TaskActions* actions_ = nullptr;
    QStackedWidget* stack_ = nullptr;
    OverviewPage* overview_ = nullptr;
    FleetModel* fleet_ = nullptr;
    NotificationCenter* notifications_ = nullptr;
    BatchRunner* batch_ = nullptr;
    QSystemTrayIcon* tray_ = nullptr;
    QTimer fleetTimer_;
    LocalTaskOpener opener_;
    std::function<bool(const QString&)> confirmBatch_;
    int trayHealth_ = -1;                       // the ChannelHealth the tray icon shows
    bool workspaceKept_ = false;                // restoreWorkspace() was called: changes are saved in QSettings
    std::shared_ptr<task::TaskControl> shown_;  // the channel in the task view
    TaskView* taskView_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QLabel* commandState_ = nullptr;
    CheckpointInspectionPage* inspection_ = nullptr;
    EventBrowserPage* browser_ = nullptr;
    UserGuideWindow* userGuide_ = nullptr;  // Help > User guide: one window, kept
    EventBrowserLinks* browserLinks_ = nullptr;
    QProgressDialog* stopping_ = nullptr;
    bool closeWhenStopped_ = false;
    TaskFiles files_;
};

}  // namespace syncscope::ui

Q_DECLARE_METATYPE(syncscope::ui::TaskFiles)
