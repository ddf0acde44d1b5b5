// The fleet behind the overview: every channel of the workspace (FleetModel), its notifications and batch
// actions, and which channel the task view shows: a local task attached, an overview row opened, a channel
// removed. Once restored, the workspace is kept in QSettings as channels come and go; it can also be saved
// to a file and opened from one. Dialogs open over the window it is given.
#pragma once

#include <QObject>
#include <QTimer>
#include <functional>
#include <memory>

#include "engine/task/task_control.h"
#include "ui/fleet/batch_plan.h"
#include "ui/fleet/channel_group.h"
#include "ui/fleet/dm_command.h"
#include "ui/main/shown_channel.h"
#include "ui/main/task_files.h"

class QWidget;

namespace syncscope::ui {

class EngineAdapter;
class FleetModel;
class NotificationCenter;
class TaskView;

class FleetController : public QObject {
    Q_OBJECT

public:
    FleetController(QWidget* window, TaskView* taskView, EngineAdapter* adapter);

    FleetModel* model() const { return model_; }
    NotificationCenter* notifications() const { return notifications_; }
    BatchRunner* batchRunner() const { return batch_; }
    QTimer* timer() { return &timer_; }
    const ShownChannel& shown() const { return shown_; }
    // Whether the shown channel is a task of this process (true when no channel of the fleet is shown).
    bool shownIsLocal() const;

    void setLocalTaskOpener(LocalTaskOpener opener) { opener_ = std::move(opener); }
    void setBatchConfirmer(std::function<bool(const QString& text)> confirmer) { confirmBatch_ = std::move(confirmer); }

    // Adds the task to the fleet as a local channel and shows it in the task view; a null task detaches.
    void attachTask(std::shared_ptr<task::TaskControl> task, const TaskFiles& files);
    // Closes the shown channel (a local task stops gracefully and leaves the fleet) and asks for the overview.
    void detachTask();
    // Opens a workspace entry (or finds the one already open with the same key); its group index, or
    // -1 when a local task cannot be opened (the reason is shown).
    int addChannel(const ChannelSpec& spec);
    // Shows one channel of the overview (a FleetModel row) in the task view.
    void openChannel(int row);
    // The overview's Remove, after a question; a local task is stopped gracefully, other channels keep running.
    void removeChannelWithConfirmation(int row);
    void editNotifications(int row);
    // Pause or resume the rows after one confirmation; the confirmer answers in tests (default: a dialog).
    void runBatch(BatchCommand command, const QList<int>& rows);
    void addRemoteEngineWithDialog();
    void addReplicaWithDialog();
    void addDmClusterWithDialog();
    // A DM cluster's command on the row, after a confirmation that says what is sent (the batch confirmer
    // answers in tests); run off the GUI thread, its result in the status bar.
    void runDmCommandWithConfirmation(int row, DmCommand command);
    void refresh();  // the fleet timer calls it
    void restoreWorkspace();
    bool saveWorkspaceAs(const QString& path, QString* error);
    void openWorkspace(const QString& path);
    // File > Open workspace / Save workspace as: the file dialogs, then the above (a failed save is shown).
    void openWorkspaceWithDialog();
    void saveWorkspaceWithDialog();

signals:
    // The task view is to be shown (an attached task's first snapshot is then drawn in a visible view).
    void taskViewRequested();
    void overviewRequested();
    void titleChanged(const QString& title);
    // A task opened from its files: File > Recent tasks keeps it.
    void taskFilesOpened(const syncscope::ui::TaskFiles& files);
    // The shown channel changed: the task's actions follow it.
    void shownChannelChanged();
    void statusMessage(const QString& text, int milliseconds);
    void refreshed();

private:
    void showChannel(const std::shared_ptr<task::TaskControl>& task, const QString& pickerSourceField);
    void persistWorkspace();

    QWidget* window_;
    TaskView* taskView_;
    EngineAdapter* adapter_;
    FleetModel* model_;
    NotificationCenter* notifications_;
    BatchRunner* batch_;
    QTimer timer_;
    LocalTaskOpener opener_;
    std::function<bool(const QString&)> confirmBatch_;
    bool workspaceKept_ = false;  // restoreWorkspace() was called: changes are saved in QSettings
    ShownChannel shown_;
};

}  // namespace syncscope::ui
