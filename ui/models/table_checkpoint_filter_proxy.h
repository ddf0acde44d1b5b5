// Sorting and filtering of the table checkpoints: numeric sort role, an "only anomalies" switch and a
// schema/table text filter.
#pragma once

#include <QSortFilterProxyModel>

namespace syncscope::ui {

class TableCheckpointFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit TableCheckpointFilterProxy(QObject* parent = nullptr);

    bool onlyAnomalies() const { return onlyAnomalies_; }
    void setOnlyAnomalies(bool only);
    // Case-insensitive text matched against "schema.table".
    void setNameFilter(const QString& text);
    QString nameFilter() const { return nameFilter_; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    bool onlyAnomalies_ = false;
    QString nameFilter_;
};

}  // namespace syncscope::ui
