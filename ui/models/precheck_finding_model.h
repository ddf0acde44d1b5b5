// The findings of one precheck as a table (severity, check, subject, what is wrong), swapped in whole
// when a precheck finishes; the full finding (why it matters, the fix) is one role away.
#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "engine/precheck/finding.h"

namespace syncscope::ui {

class PrecheckFindingModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { SeverityColumn, CheckColumn, SubjectColumn, ProblemColumn, ColumnCount };
    enum Role { SeverityRole = Qt::UserRole, FixRole, ImpactRole, RunnableFixRole };
    Q_ENUM(Role)

    explicit PrecheckFindingModel(QObject* parent = nullptr);

    void setFindings(std::vector<precheck::Finding> findings);
    const precheck::Finding* finding(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<precheck::Finding> findings_;
};

}  // namespace syncscope::ui
