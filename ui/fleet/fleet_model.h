// The overview: one row per channel of every workspace entry (local tasks, remote engines, replica
// channels) with its kind, stage, lag, rows/s, anomalies, last error and host. refresh() pulls every
// channel's snapshot once; rows whose figures changed are announced as runs (one dataChanged per run),
// and a changed set of channels is one reset. Sorting uses SortRole, a number for numeric columns.
#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <memory>
#include <vector>

#include "engine/task/task_control.h"
#include "ui/fleet/channel_group.h"

namespace syncscope::ui {

// Worst first when sorted descending.
enum class ChannelHealth { Idle = 0, Healthy = 1, Warning = 2, Failed = 3 };

class FleetModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        ChannelColumn,
        KindColumn,
        StageColumn,
        LagColumn,
        RowsPerSecondColumn,
        AnomaliesColumn,
        LastErrorColumn,
        HostColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole,  // numbers for numeric columns (stage: health), text otherwise
        HealthRole,               // int(ChannelHealth)
        SearchRole,               // every column's text but lag and rows/s, for the filter
    };
    Q_ENUM(Role)

    struct Row {
        int group = 0;  // index into the groups
        QString label;
        ChannelKind kind = ChannelKind::LocalTask;
        std::shared_ptr<task::TaskControl> task;
        std::shared_ptr<const task::StatusSnapshot> snapshot;
        QString stage;  // "Running", "Lost", ...
        ChannelHealth health = ChannelHealth::Idle;
        double lagSeconds = 0;
        double rowsPerSecond = 0;
        int anomalies = 0;
        QString lastError;
        QString host;
        bool lost = false;
        std::optional<QDateTime> lastSeen;
    };

    struct RefreshResult {
        bool reset = false;
        int changedRows = 0;
        int dataChangedSignals = 0;
    };

    explicit FleetModel(QObject* parent = nullptr);
    ~FleetModel() override;

    // Takes the entry; it is shown from the next refresh().
    int addGroup(std::unique_ptr<ChannelGroup> group);
    // Closes an entry; its engine objects are released on a worker thread (a local task stops
    // gracefully there), never on the GUI thread.
    void removeGroup(int group);
    int groupCount() const { return int(groups_.size()); }
    const ChannelGroup& group(int index) const { return *groups_[size_t(index)]; }
    // Per channel: notify or not, and above which lag (the workspace keeps it).
    void setNotifications(int group, bool notify, double lagThresholdSeconds);
    int groupOfKey(const QString& key) const;  // -1 when no entry has that key
    QList<ChannelSpec> specs() const;

    RefreshResult refresh();
    const Row& rowAt(int row) const { return rows_[size_t(row)]; }
    int rowOfTask(const task::TaskControl* task) const;  // -1 when no row shows it
    ChannelHealth worstHealth() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void groupsChanged();

private:
    Row buildRow(int group, const ChannelHandle& handle, const ChannelConnection& connection,
                 const Row* previous) const;
    QVariant displayData(const Row& row, int column) const;

    std::vector<std::unique_ptr<ChannelGroup>> groups_;
    std::vector<Row> rows_;
};

// Table points flagged (ahead of global, beyond upstream, purged file), as the task view counts them.
int anomalyCount(const task::StatusSnapshot& snapshot);

}  // namespace syncscope::ui
