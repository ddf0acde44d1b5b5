// Sorting and filtering of the table checkpoints: sorted on numbers, an "only anomalies" switch, a
// filter on the last verify (unverified, with differences) and a schema/table text filter.
#pragma once

#include <QPointer>
#include <QSortFilterProxyModel>

namespace syncscope::ui {

class TableCheckpointModel;

class TableCheckpointFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT

public:
    enum class VerifiedFilter {
        Any,
        Unverified,       // no verify result for the table
        WithDifferences,  // a verify found differences, failed or was cancelled: not proven equal
    };
    Q_ENUM(VerifiedFilter)

    explicit TableCheckpointFilterProxy(QObject* parent = nullptr);

    void setSourceModel(QAbstractItemModel* model) override;

    bool onlyAnomalies() const { return onlyAnomalies_; }
    void setOnlyAnomalies(bool only);
    VerifiedFilter verifiedFilter() const { return verifiedFilter_; }
    void setVerifiedFilter(VerifiedFilter filter);
    // Case-insensitive text matched against "schema.table".
    void setNameFilter(const QString& text);
    QString nameFilter() const { return nameFilter_; }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    // Numbers straight from the table model (thousands of comparisons per refresh, no QVariant);
    // text columns and other models through the sort role.
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    QPointer<TableCheckpointModel> tableModel_;  // the source when it is one, for typed access
    bool onlyAnomalies_ = false;
    VerifiedFilter verifiedFilter_ = VerifiedFilter::Any;
    QString nameFilter_;
};

}  // namespace syncscope::ui
