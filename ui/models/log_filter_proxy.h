// Filters the log by minimum level and by text (in the message or the engine part).
#pragma once

#include <QSortFilterProxyModel>

#include "engine/common/log_ring.h"

namespace syncscope::ui {

class LogFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit LogFilterProxy(QObject* parent = nullptr);

    void setMinimumLevel(LogLevel level);
    LogLevel minimumLevel() const { return minimumLevel_; }
    void setSearchText(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    LogLevel minimumLevel_ = LogLevel::Trace;
    QString searchText_;
};

}  // namespace syncscope::ui
