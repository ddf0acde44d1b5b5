// The main window of the SyncScope GUI: the frame that holds the task views, the menus and the task's
// controls. A task is attached as a TaskControl (the engine's Task, or any other implementation), so the
// window never depends on how the task was built.
#pragma once

#include <QMainWindow>
#include <atomic>
#include <functional>
#include <memory>

#include "engine/browse/binlog_history.h"
#include "engine/common/log_ring.h"
#include "engine/task/task_control.h"
#include "engine/verify/window_preview.h"

class QLabel;
class QMenu;
class QProgressDialog;
class QStackedWidget;

namespace syncscope::ui {

class CheckpointInspectionPage;
class EngineAdapter;
class EventBrowserLinks;
class EventBrowserPage;
class NewTaskDialog;
class TaskActions;
class TaskView;
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

    void attachTask(std::shared_ptr<task::TaskControl> task, const TaskFiles& files = {});
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
    // The browser opened at a point the GUI shows (a ruler marker, the failed event, a table point).
    void browseAt(const QString& file, qulonglong pos, const QString& why);
    EventBrowserLinks* browserLinks() const { return browserLinks_; }

signals:
    // File > Open task or a recent task: whoever builds tasks answers with attachTask().
    void openTaskRequested(const syncscope::ui::TaskFiles& files);

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
    // main_window_preview.cpp: the rows a skip or a resume-from leaves out (or applies again), first.
    void skipWithPreview();
    void resumeFromWithPreview(const task::ResumeTarget& target, const QString& description);
    QString replaySqlPath(const std::string& taskName) const;
    WindowPreviewDialog* previewDialog(std::function<verify::WindowPreview(const std::atomic<bool>*)> job,
                                       WindowPreviewAction action);
    void saveWindowState();
    void restoreWindowState();

    EngineAdapter* adapter_ = nullptr;
    TaskActions* actions_ = nullptr;
    QStackedWidget* stack_ = nullptr;
    QLabel* welcome_ = nullptr;
    TaskView* taskView_ = nullptr;
    QMenu* recentMenu_ = nullptr;
    QLabel* commandState_ = nullptr;
    CheckpointInspectionPage* inspection_ = nullptr;
    EventBrowserPage* browser_ = nullptr;
    EventBrowserLinks* browserLinks_ = nullptr;
    QProgressDialog* stopping_ = nullptr;
    bool closeWhenStopped_ = false;
    TaskFiles files_;
};

}  // namespace syncscope::ui

Q_DECLARE_METATYPE(syncscope::ui::TaskFiles)
