#include "ui/models/log_filter_proxy.h"

#include "ui/models/log_model.h"

namespace syncscope::ui {

LogFilterProxy::LogFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {}

void LogFilterProxy::setMinimumLevel(LogLevel level) {
    if (level == minimumLevel_) {
        return;
    }
    minimumLevel_ = level;
    invalidateFilter();
}

void LogFilterProxy::setSearchText(const QString& text) {
    if (text == searchText_) {
        return;
    }
    searchText_ = text;
    invalidateFilter();
}

bool LogFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    const QAbstractItemModel* model = sourceModel();
    const QModelIndex message = model->index(sourceRow, LogModel::MessageColumn, sourceParent);
    if (model->data(message, LogModel::LevelRole).toInt() < int(minimumLevel_)) {
        return false;
    }
    if (searchText_.isEmpty()) {
        return true;
    }
    return message.data().toString().contains(searchText_, Qt::CaseInsensitive) ||
           model->index(sourceRow, LogModel::PartColumn, sourceParent)
               .data()
               .toString()
               .contains(searchText_, Qt::CaseInsensitive);
}

}  // namespace syncscope::ui
