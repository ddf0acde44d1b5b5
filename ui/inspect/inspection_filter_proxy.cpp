#include "ui/inspect/inspection_filter_proxy.h"

#include "ui/inspect/checkpoint_inspection_model.h"

namespace syncscope::ui {

InspectionFilterProxy::InspectionFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(CheckpointInspectionModel::SortRole);
}

void InspectionFilterProxy::setOnlyAnomalies(bool only) {
    if (only == onlyAnomalies_) {
        return;
    }
    onlyAnomalies_ = only;
    invalidateFilter();
}

void InspectionFilterProxy::setTextFilter(const QString& text) {
    const QString trimmed = text.trimmed();
    if (trimmed == textFilter_) {
        return;
    }
    textFilter_ = trimmed;
    invalidateFilter();
}

bool InspectionFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QAbstractItemModel* model = sourceModel();
    if (onlyAnomalies_ &&
        !model->index(sourceRow, 0, sourceParent).data(CheckpointInspectionModel::HasAnomalyRole).toBool()) {
        return false;
    }
    if (textFilter_.isEmpty()) {
        return true;
    }
    for (int column : {CheckpointInspectionModel::TaskColumn, CheckpointInspectionModel::SourceColumn,
                       CheckpointInspectionModel::PointOfColumn}) {
        if (model->index(sourceRow, column, sourceParent)
                .data()
                .toString()
                .contains(textFilter_, Qt::CaseInsensitive)) {
            return true;
        }
    }
    return false;
}

}  // namespace syncscope::ui
