// One row per table of a verify: the table (and where it is routed), its outcome, where it was
// verified, chunks done of total, rows compared and differences. Swapped whole per progress tick,
// or changed in place when the tables are the same.
#pragma once

#include <QAbstractTableModel>

#include <vector>

#include "engine/verify/verify_result.h"

namespace syncscope::ui {

class VerifyResultsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column {
        TableColumn,
        OutcomeColumn,
        VerifiedAtColumn,
        ChunksColumn,
        RowsColumn,
        DifferencesColumn,
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole, OutcomeRole };
    Q_ENUM(Role)

    explicit VerifyResultsModel(QObject* parent = nullptr);

    void setResults(std::vector<verify::TableVerifyResult> results);
    const verify::TableVerifyResult* result(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<verify::TableVerifyResult> results_;
};

}  // namespace syncscope::ui
