// The points found by a checkpoint inspection, one row per global or table point of every source of
// every checkpoint table read (plus a row for a missing global row or an unreadable table), with
// what a resume would skip; then the applied marks of tables without a key (SyncScope's own tasks). The whole report is
// swapped in one reset.
#pragma once

#include <QAbstractTableModel>
#include <optional>
#include <vector>

#include "engine/inspect/inspection_report.h"

namespace syncscope::ui {

class CheckpointInspectionModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        TaskColumn,
        SourceColumn,
        PointOfColumn,
        // The flag and what a resume skips come first, so that a narrow window still shows them.
        FlagColumn,
        SkippedBytesColumn,
        SkippedEventsColumn,
        SkippedTableEventsColumn,
        PositionColumn,
        GtidColumn,
        UpstreamColumn,
        UpdatedColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole,  // numbers for the numeric columns, text otherwise
        HasAnomalyRole,
        AheadOfGlobalRole,
    };

    // What one row shows; plain values so that tests and copy read the same thing.
    struct PointRow {
        QString checkpointTable;  // `meta`.`table`
        QString task;
        QString sourceId;
        QString pointOf;  // "global" or schema.table
        bool isGlobal = false;
        bool missing = false;      // a row that stands for something absent (missing global row, unreadable table)
        bool appliedMark = false;  // SyncScope's applied mark of a table without a key, not a checkpoint point
        QString position;          // file:pos as parsed, or the stored text when unreadable
        QString gtid;
        QString exitSafe;
        QString upstream;  // where the point lies on the upstream's binlog
        std::optional<qint64> skippedBytes;
        std::optional<quint64> skippedEvents;
        std::optional<quint64> skippedTableEvents;
        std::optional<quint64> skippedTransactions;
        bool eventsCapped = false;
        std::vector<inspect::CheckpointAnomaly> anomalies;
        QString updated;
    };

    explicit CheckpointInspectionModel(QObject* parent = nullptr);

    void setReport(const inspect::InspectionReport& report);
    void clear();

    const PointRow& pointRow(int row) const { return rows_.at(size_t(row)); }
    int anomalyRowCount() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Short words for the flag column ("ahead of global", "missing global row", ...).
    static QString anomalyLabel(inspect::AnomalyKind kind);

private:
    QVariant displayData(const PointRow& row, int column) const;
    QVariant sortData(const PointRow& row, int column) const;
    QString toolTip(const PointRow& row) const;

    std::vector<PointRow> rows_;
};

}  // namespace syncscope::ui
