// The table checkpoints view: sortable on numbers, filter by name, an "only anomalies" switch, a filter
// on the last verify (unverified, with differences), copy of the selected rows and CSV export of the
// visible ones.
#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;

namespace syncscope::ui {

class TableCheckpointModel;
class TableCheckpointFilterProxy;

class TableCheckpointsPage : public QWidget {
    Q_OBJECT

public:
    explicit TableCheckpointsPage(TableCheckpointModel* model, QWidget* parent = nullptr);

    TableCheckpointFilterProxy* proxy() const { return proxy_; }
    QTableView* view() const { return view_; }
    QCheckBox* onlyAnomaliesSwitch() const { return onlyAnomalies_; }
    // All tables / unverified / with differences (items in TableCheckpointFilterProxy::VerifiedFilter order).
    QComboBox* verifiedFilter() const { return verifiedFilter_; }

    // Tab-separated text of the selected rows (all visible rows when none is selected), with a header.
    QString selectedRowsText() const;
    // The visible rows as CSV (RFC 4180 quoting), raw numbers.
    QString visibleRowsCsv() const;
    bool exportCsv(const QString& path, QString* error) const;
    // Selects and shows a table's row; false when the filter hides it or the table is not listed.
    bool selectTable(const QString& schema, const QString& table);

public slots:
    void copySelection();
    void exportCsvWithDialog();
    void updateSummary();

private:
    QString rowsText(const QList<int>& proxyRows, QChar separator, bool quote) const;

    TableCheckpointModel* model_;
    TableCheckpointFilterProxy* proxy_;
    QTableView* view_ = nullptr;
    QLineEdit* filter_ = nullptr;
    QCheckBox* onlyAnomalies_ = nullptr;
    QComboBox* verifiedFilter_ = nullptr;
    QLabel* summary_ = nullptr;
};

}  // namespace syncscope::ui
