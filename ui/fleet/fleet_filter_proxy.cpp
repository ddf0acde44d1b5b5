#include "ui/fleet/fleet_filter_proxy.h"

#include "ui/fleet/fleet_model.h"

namespace syncscope::ui {

FleetFilterProxy::FleetFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(FleetModel::SortRole);
    setDynamicSortFilter(true);
}

void FleetFilterProxy::setText(const QString& text) {
    text_ = text.trimmed();
    invalidateRowsFilter();
}

void FleetFilterProxy::setOnlyProblems(bool only) {
    onlyProblems_ = only;
    invalidateRowsFilter();
}

bool FleetFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (onlyProblems_ && index.data(FleetModel::HealthRole).toInt() < int(ChannelHealth::Warning)) {
        return false;
    }
    return text_.isEmpty() || index.data(FleetModel::SearchRole).toString().contains(text_, Qt::CaseInsensitive);
}

bool FleetFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    const QVariant a = left.data(FleetModel::SortRole);
    const QVariant b = right.data(FleetModel::SortRole);
    if (a.typeId() == QMetaType::QString || b.typeId() == QMetaType::QString) {
        return QString::localeAwareCompare(a.toString(), b.toString()) < 0;
    }
    return a.toDouble() < b.toDouble();
}

}  // namespace syncscope::ui
