// The start page: every channel of the workspace in one sortable, filterable table (double-click opens
// the channel's view), batch pause/resume of the selected ones, and the log of notifications. With no
// channel yet it shows the start area instead: New task, Open task, Add remote engine, Add replica, Add DM
// cluster, Inspect checkpoints, and the recent tasks. A DM cluster's rows offer its commands in their menu.
#pragma once

#include <QWidget>

#include "ui/fleet/batch_plan.h"
#include "ui/fleet/dm_command.h"

class QCheckBox;
class QLineEdit;
class QListWidget;
class QPushButton;
class QStackedWidget;
class QTableView;

namespace syncscope::ui {

class FleetFilterProxy;
class FleetModel;
class NotificationLogModel;

class OverviewPage : public QWidget {
    Q_OBJECT

public:
    OverviewPage(FleetModel* model, NotificationLogModel* log, QWidget* parent = nullptr);

    QTableView* table() const { return table_; }
    QTableView* notificationTable() const { return notifications_; }
    FleetFilterProxy* proxy() const { return proxy_; }
    QLineEdit* filterEdit() const { return filter_; }
    QCheckBox* onlyProblemsBox() const { return onlyProblems_; }
    QPushButton* pauseButton() const { return pauseSelected_; }
    QPushButton* resumeButton() const { return resumeSelected_; }
    bool showingStartArea() const;
    QList<int> selectedSourceRows() const;
    // Recent tasks for the start area: "task\nsource" entries, as the File menu keeps them.
    void setRecentTasks(const QStringList& entries);

signals:
    void channelActivated(int sourceRow);
    void newTaskRequested();
    void openTaskRequested();
    void addRemoteRequested();
    void addReplicaRequested();
    void addDmClusterRequested();
    void inspectRequested();
    void recentTaskRequested(const QString& taskPath, const QString& sourcePath);
    void batchRequested(syncscope::ui::BatchCommand command, const QList<int>& sourceRows);
    void removeRequested(int sourceRow);
    void notificationSettingsRequested(int sourceRow);
    void dmCommandRequested(int sourceRow, syncscope::ui::DmCommand command);

private:
    QWidget* makeStartArea();
    QWidget* makeChannelArea(NotificationLogModel* log);
    void updateState();

    FleetModel* model_;
    FleetFilterProxy* proxy_;
    QStackedWidget* stack_ = nullptr;
    QWidget* startArea_ = nullptr;
    QWidget* channelArea_ = nullptr;
    QTableView* table_ = nullptr;
    QTableView* notifications_ = nullptr;
    QLineEdit* filter_ = nullptr;
    QCheckBox* onlyProblems_ = nullptr;
    QPushButton* pauseSelected_ = nullptr;
    QPushButton* resumeSelected_ = nullptr;
    QListWidget* recent_ = nullptr;
};

}  // namespace syncscope::ui
