// Sorting and filtering of the inspected checkpoint points: numbers sort as numbers, an "only
// anomalies" switch, and a text filter over task, source and table.
#pragma once

#include <QSortFilterProxyModel>

namespace syncscope::ui {

class InspectionFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit InspectionFilterProxy(QObject* parent = nullptr);

    bool onlyAnomalies() const { return onlyAnomalies_; }
    void setOnlyAnomalies(bool only);
    // Case-insensitive text matched against the task, the source-id and "schema.table".
    void setTextFilter(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    bool onlyAnomalies_ = false;
    QString textFilter_;
};

}  // namespace syncscope::ui
