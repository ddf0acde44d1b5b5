// The snapshot load of one task: one row per upstream table with its rows and bytes done of the
// estimate, chunks and the chunk being copied now, refreshed from status snapshots. The same tables
// update in place (one dataChanged over every row: during a load most rows move together); another
// set of tables swaps in with one reset.
#pragma once

#include <QAbstractTableModel>
#include <memory>
#include <optional>

#include "engine/task/status_snapshot.h"

namespace syncscope::ui {

class LoadProgressModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        TableColumn,
        TargetColumn,
        ProgressColumn,
        RowsColumn,
        BytesColumn,
        ChunksColumn,
        CurrentColumn,
        ColumnCount
    };
    enum Role {
        SortRole = Qt::UserRole,  // numbers for numeric columns, text for the names
        FractionRole,             // double 0..1 for the progress bar
    };
    Q_ENUM(Role)

    explicit LoadProgressModel(QObject* parent = nullptr);

    // True when the snapshot carries a load (task-mode all or full).
    bool setSnapshot(const std::shared_ptr<const task::StatusSnapshot>& snapshot);
    const std::optional<load::LoadProgressView>& progress() const { return progress_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Done over estimated rows, 0..1 (1 for a finished table, whatever the estimate said).
    static double fraction(const load::TableLoadView& table);

private:
    std::optional<load::LoadProgressView> progress_;
};

}  // namespace syncscope::ui
