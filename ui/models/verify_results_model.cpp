#include "ui/models/verify_results_model.h"

#include <QBrush>
#include <QColor>

namespace syncscope::ui {

namespace {

QString tableText(const verify::TableVerifyResult& result) {
    QString text = QString::fromStdString(result.upstream.text());
    if (!(result.downstream == result.upstream)) {
        text += QStringLiteral(" → ") + QString::fromStdString(result.downstream.text());
    }
    return text;
}

bool finished(const verify::TableVerifyResult& result) {
    return result.seconds > 0 || result.outcome == verify::TableOutcome::Failed;
}

QString outcomeText(const verify::TableVerifyResult& result) {
    if (!finished(result)) {
        return VerifyResultsModel::tr("verifying…");
    }
    return QString::fromLatin1(verify::tableOutcomeName(result.outcome));
}

}  // namespace

VerifyResultsModel::VerifyResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

void VerifyResultsModel::setResults(std::vector<verify::TableVerifyResult> results) {
    bool sameTables = results.size() == results_.size();
    for (size_t i = 0; sameTables && i < results.size(); ++i) {
        sameTables = results[i].upstream == results_[i].upstream;
    }
    if (!sameTables) {
        beginResetModel();
        results_ = std::move(results);
        endResetModel();
        return;
    }
    results_ = std::move(results);
    if (!results_.empty()) {
        emit dataChanged(index(0, 0), index(static_cast<int>(results_.size()) - 1, ColumnCount - 1));
    }
}

const verify::TableVerifyResult* VerifyResultsModel::result(int row) const {
    return row >= 0 && static_cast<size_t>(row) < results_.size() ? &results_[static_cast<size_t>(row)] : nullptr;
}

int VerifyResultsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(results_.size());
}

int VerifyResultsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant VerifyResultsModel::data(const QModelIndex& index, int role) const {
    const verify::TableVerifyResult* result = this->result(index.row());
    if (!result) {
        return {};
    }
    if (role == OutcomeRole) {
        return static_cast<int>(result->outcome);
    }
    if (role == Qt::ToolTipRole) {
        return result->problem.empty() ? QVariant() : QVariant(QString::fromStdString(result->problem));
    }
    if (role == Qt::ForegroundRole && index.column() == OutcomeColumn && finished(*result)) {
        switch (result->outcome) {
            case verify::TableOutcome::Equal:
                return QBrush(QColor(QStringLiteral("#2e7d32")));
            case verify::TableOutcome::Different:
            case verify::TableOutcome::Failed:
                return QBrush(QColor(QStringLiteral("#c62828")));
            case verify::TableOutcome::Cancelled:
                return {};
        }
    }
    if (role != Qt::DisplayRole && role != SortRole) {
        return {};
    }
    const bool sort = role == SortRole;
    switch (index.column()) {
        case TableColumn:
            return tableText(*result);
        case OutcomeColumn:
            return sort ? QVariant(static_cast<int>(result->outcome)) : QVariant(outcomeText(*result));
        case VerifiedAtColumn:
            return result->verifiedAt.isEmpty() ? QString() : QString::fromStdString(result->verifiedAt.toString());
        case ChunksColumn:
            return sort ? QVariant::fromValue<qulonglong>(result->chunksDone)
                        : QVariant(tr("%1 / %2").arg(result->chunksDone).arg(result->chunksTotal));
        case RowsColumn:
            return QVariant::fromValue<qulonglong>(result->rowsCompared);
        case DifferencesColumn:
            return QVariant::fromValue<qulonglong>(result->differences.size());
        default:
            return {};
    }
}

QVariant VerifyResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case TableColumn:
            return tr("Table");
        case OutcomeColumn:
            return tr("Outcome");
        case VerifiedAtColumn:
            return tr("Verified at");
        case ChunksColumn:
            return tr("Chunks");
        case RowsColumn:
            return tr("Rows compared");
        case DifferencesColumn:
            return tr("Differences");
        default:
            return {};
    }
}

}  // namespace syncscope::ui
