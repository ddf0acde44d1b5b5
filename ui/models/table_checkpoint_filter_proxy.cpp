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

void TableCheckpointFilterProxy::setNameFilter(const QString& text) {
    const QString trimmed = text.trimmed();
    if (trimmed == nameFilter_) {
        return;
    }
    nameFilter_ = trimmed;
    invalidateFilter();
}

bool TableCheckpointFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QAbstractItemModel* model = sourceModel();
    if (onlyAnomalies_) {
        const QModelIndex flag = model->index(sourceRow, TableCheckpointModel::FlagColumn, sourceParent);
        if (model->data(flag, TableCheckpointModel::AnomalyRole).toInt() == 0) {
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
