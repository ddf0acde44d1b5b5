// The shard DDL locks of a task (shard-mode), one row per lock and shard table: the shard tables that read the
// DDL (where, since when), then those waited for, marked. A different set of locks swaps in one reset; the same
// locks announce only the Since column, whose "for 3 min" runs on with the snapshots' time.
#pragma once

#include <QAbstractTableModel>
#include <memory>
#include <vector>

#include "engine/task/status_snapshot.h"

namespace syncscope::ui {

class ShardLockModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        MergedTableColumn,  // the downstream table the shard tables merge into
        LockStateColumn,    // waiting, or ran downstream and re-syncing
        SourceColumn,
        ShardTableColumn,  // the upstream shard table
        ShardStateColumn,  // read the DDL, waited for, re-syncing, re-synced
        PositionColumn,    // where it read the DDL
        SinceColumn,
        DdlColumn,
        ColumnCount
    };

    enum Role {
        WaitedForRole = Qt::UserRole,  // bool: the lock waits for this shard table (or its source's re-sync)
        ShardStateRole,                // int(ShardState)
    };
    Q_ENUM(Role)

    enum class ShardState {
        ReadTheDdl,  // in a waiting lock: read the DDL, its later rows wait
        WaitedFor,   // in a waiting lock: not there yet
        ReSyncing,   // in a lock that ran: its source reads again from the held point
        ReSynced,    // in a lock that ran: passed
    };

    explicit ShardLockModel(QObject* parent = nullptr);

    void setSnapshot(std::shared_ptr<const task::StatusSnapshot> snapshot);
    // The locks shown (none without a snapshot).
    const std::vector<task::ShardLockStatus>& locks() const;
    // shard-mode optimistic: the columns some shard tables still lack (shown as lines, not rows).
    const std::vector<task::ShardColumnStatus>& columns() const;
    const task::ShardLockStatus* lockAt(int row) const;
    const task::ShardLockStatus::Shard* shardAt(int row) const;
    ShardState shardStateAt(int row) const;
    // The snapshot's time: "for 3 min" counts to it.
    task::Clock::time_point now() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        size_t lock = 0;
        bool arrival = true;  // in the lock's arrived list, else in waitingFor
        size_t shard = 0;
        ShardState state = ShardState::ReadTheDdl;
    };
    void buildRows();
    QVariant displayData(const Row& row, int column) const;
    QString tooltip(const Row& row, int column) const;

    std::shared_ptr<const task::StatusSnapshot> snapshot_;
    std::vector<Row> rows_;
};

}  // namespace syncscope::ui
