#include "ui/models/precheck_finding_model.h"

#include <QColor>

namespace syncscope::ui {

namespace {

const QColor kErrorColor(0xc6, 0x28, 0x28);
const QColor kWarningColor(0xb2, 0x6a, 0x00);

}  // namespace

PrecheckFindingModel::PrecheckFindingModel(QObject* parent) : QAbstractTableModel(parent) {}

void PrecheckFindingModel::setFindings(std::vector<precheck::Finding> findings) {
    beginResetModel();
    findings_ = std::move(findings);
    endResetModel();
}

const precheck::Finding* PrecheckFindingModel::finding(int row) const {
    return row >= 0 && row < rowCount() ? &findings_[static_cast<size_t>(row)] : nullptr;
}

int PrecheckFindingModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(findings_.size());
}

int PrecheckFindingModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PrecheckFindingModel::data(const QModelIndex& index, int role) const {
    const precheck::Finding* f = index.isValid() ? finding(index.row()) : nullptr;
    if (!f) {
        return {};
    }
    switch (role) {
        case Qt::DisplayRole:
        case Qt::ToolTipRole:
            switch (index.column()) {
                case SeverityColumn:
                    return QString::fromUtf8(precheck::severityName(f->severity));
                case CheckColumn:
                    return QString::fromStdString(f->check);
                case SubjectColumn:
                    return QString::fromStdString(f->subject);
                case ProblemColumn:
                    return QString::fromStdString(f->problem);
                default:
                    return {};
            }
        case Qt::ForegroundRole:
            if (index.column() == SeverityColumn && f->severity != precheck::Severity::Note) {
                return f->severity == precheck::Severity::Error ? kErrorColor : kWarningColor;
            }
            return {};
        case SeverityRole:
            return static_cast<int>(f->severity);
        case FixRole:
            return QString::fromStdString(f->fix);
        case ImpactRole:
            return QString::fromStdString(f->impact);
        case RunnableFixRole:
            return f->hasRunnableFix();
        default:
            return {};
    }
}

QVariant PrecheckFindingModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case SeverityColumn:
            return tr("Severity");
        case CheckColumn:
            return tr("Check");
        case SubjectColumn:
            return tr("Subject");
        case ProblemColumn:
            return tr("What is wrong");
        default:
            return {};
    }
}

}  // namespace syncscope::ui
