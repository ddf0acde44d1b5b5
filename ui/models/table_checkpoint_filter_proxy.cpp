#include "ui/models/table_checkpoint_filter_proxy.h"

#include "ui/models/table_checkpoint_model.h"

namespace syncscope::ui {

TableCheckpointFilterProxy::TableCheckpointFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(TableCheckpointModel::SortRole);
    setDynamicSortFilter(true);
}

void TableCheckpointFilterProxy::setOnlyAnomalies(bool only) {
    if (only == onlyAnomalies_) {
        return;
    }
    onlyAnomalies_ = only;
    invalidateFilter();
}

void TableCheckpointFilterProxy::setVerifiedFilter(VerifiedFilter filter) {
    if (filter == verifiedFilter_) {
        return;
    }
    verifiedFilter_ = filter;
    invalidateFilter();
}

void TableCheckpointFilterProxy::setNameFilter(const QString& text) {
    const QString trimmed = text.trimmed();
    if (trimmed == nameFilter_) {
        return;
    }
    nameFilter_ = trimmed;
    invalidateFilter();
}

void TableCheckpointFilterProxy::setSourceModel(QAbstractItemModel* model) {
    tableModel_ = qobject_cast<TableCheckpointModel*>(model);
    QSortFilterProxyModel::setSourceModel(model);
}

bool TableCheckpointFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    int64_t leftKey = 0;
    int64_t rightKey = 0;
    if (tableModel_ && left.column() == right.column() &&
        tableModel_->numericSortKey(left.row(), left.column(), &leftKey) &&
        tableModel_->numericSortKey(right.row(), right.column(), &rightKey)) {
        return leftKey < rightKey;
    }
    return QSortFilterProxyModel::lessThan(left, right);
}

bool TableCheckpointFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QAbstractItemModel* model = sourceModel();
    if (onlyAnomalies_) {
        const bool flagged =
            tableModel_ ? isAnomaly(tableModel_->anomalyAt(sourceRow))
                        : isAnomaly(CheckpointAnomaly(
                              model
                                  ->data(model->index(sourceRow, TableCheckpointModel::FlagColumn, sourceParent),
                                         TableCheckpointModel::AnomalyRole)
                                  .toInt()));
        if (!flagged) {
            return false;
        }
    }
    if (verifiedFilter_ != VerifiedFilter::Any && tableModel_) {
        const TableVerification* verification = tableModel_->verificationAt(sourceRow);
        const bool wanted = verifiedFilter_ == VerifiedFilter::Unverified
                                ? verification == nullptr
                                : verification && verification->needsAttention();
        if (!wanted) {
            return false;
        }
    }
    if (!nameFilter_.isEmpty()) {
        const QString schema =
            model->index(sourceRow, TableCheckpointModel::SchemaColumn, sourceParent).data().toString();
        const QString table =
            model->index(sourceRow, TableCheckpointModel::TableColumn, sourceParent).data().toString();
        if (!(schema + QLatin1Char('.') + table).contains(nameFilter_, Qt::CaseInsensitive)) {
            return false;
        }
    }
    return true;
}

}  // namespace syncscope::ui
