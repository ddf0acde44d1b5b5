// Sorting and filtering of the overview: numbers sort as numbers (FleetModel::SortRole), the filter text
// matches any column (name, kind, stage, error, host), and "only problems" keeps failed, lost and
// warning channels.
#pragma once

#include <QSortFilterProxyModel>

namespace syncscope::ui {

class FleetFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT

public:
    explicit FleetFilterProxy(QObject* parent = nullptr);

    void setText(const QString& text);
    void setOnlyProblems(bool only);
    bool onlyProblems() const { return onlyProblems_; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    QString text_;
    bool onlyProblems_ = false;
};

}  // namespace syncscope::ui
