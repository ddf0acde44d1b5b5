// The table checkpoints of one task: one row per upstream table, refreshed from status snapshots.
// A snapshot with the same tables updates only the changed rows and columns: one dataChanged per run of
// adjacent changed rows, or one spanning them all when they are scattered; a different set of tables
// swaps the whole snapshot in one reset. A refresh allocates nothing once the table count is stable.
#pragma once

#include <QAbstractTableModel>
#include <QIcon>
#include <memory>
#include <vector>

#include "engine/task/status_snapshot.h"
#include "ui/models/checkpoint_anomaly.h"
#include "ui/models/table_verification.h"

namespace syncscope::ui {

class TableCheckpointModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        SchemaColumn,
        TableColumn,
        InMemoryColumn,
        PersistedColumn,
        BytesFromGlobalColumn,
        EventsFromGlobalColumn,
        RowsAppliedColumn,
        RowsUnmatchedColumn,  // UPDATEs and DELETEs that found no downstream row (drift)
        LastChangeColumn,
        FlagColumn,
        VerifiedColumn,      // the last verify of the table: where, and what it found
        OnlineChangeColumn,  // a running online schema change of the table (online-ddl): tool, copy, swap
        ColumnCount
    };

    enum Role {
        SortRole = Qt::UserRole,  // numbers for numeric columns, never display text
        AnomalyRole,              // int(CheckpointAnomaly)
        AheadOfGlobalRole,        // bool
        ExportRole,               // raw text for CSV and copy (no thousands separators)
    };
    Q_ENUM(Role)

    // What one refresh did, for the benchmark and the tests.
    struct UpdateResult {
        bool reset = false;
        int changedRows = 0;
        int dataChangedSignals = 0;
    };

    // More runs of changed rows than this are announced as one range: a sorting proxy handles one
    // range in one pass, but re-sorts once per signal.
    static constexpr int kMaxRangesPerRefresh = 16;

    explicit TableCheckpointModel(QObject* parent = nullptr);

    UpdateResult setSnapshot(std::shared_ptr<const task::StatusSnapshot> snapshot);
    const task::StatusSnapshot* snapshot() const { return snapshot_.get(); }
    const task::TablePointView* tableAt(int row) const;
    CheckpointAnomaly anomalyAt(int row) const;
    // The number sorted on in a column (no QVariant: the proxy compares thousands of rows per refresh).
    // Text columns have none: false.
    bool numericSortKey(int row, int column, int64_t* key) const;
    int anomalyCount() const { return anomalyCount_; }

    // The last verify of each table (from the Verify page); the Verified column shows it.
    void setVerifications(TableVerifications verifications);
    const TableVerifications& verifications() const { return verifications_; }
    // The row's last verify; null when the table was not verified.
    const TableVerification* verificationAt(int row) const;
    // The online schema change running on the row's table (online-ddl); null when none.
    const task::OnlineChangeView* onlineChangeAt(int row) const;
    int aheadCount() const { return aheadCount_; }
    // Tables ahead of a global point that a waiting shard DDL lock holds: expected, not counted as anomalies.
    int aheadForShardLockCount() const { return aheadForShardLockCount_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant displayData(const task::TablePointView& table, int column) const;
    QVariant sortData(const task::TablePointView& table, int column) const;
    const task::OnlineChangeView* onlineChangeOf(const task::TablePointView& table) const;
    void resetTo(std::shared_ptr<const task::StatusSnapshot> snapshot);
    void countAnomalies();

    std::shared_ptr<const task::StatusSnapshot> snapshot_;
    std::vector<CheckpointAnomaly> anomalies_;  // per row, for snapshot_
    struct ChangedRun {
        int firstRow;
        int lastRow;
        int firstColumn;
        int lastColumn;
    };
    std::vector<ChangedRun> runs_;  // reused from refresh to refresh
    int anomalyCount_ = 0;
    int aheadCount_ = 0;
    int aheadForShardLockCount_ = 0;
    TableVerifications verifications_;
    QIcon aheadIcon_;
    QIcon warningIcon_;
};

}  // namespace syncscope::ui
