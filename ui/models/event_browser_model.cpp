#include "ui/models/event_browser_model.h"

#include <QBrush>
#include <QFont>
#include <QPalette>

#include "engine/browse/browse_time.h"
#include "engine/browse/point_window.h"
#include "engine/filter/ddl_classifier.h"

namespace syncscope::ui {

EventBrowserModel::EventBrowserModel(QObject* parent) : QAbstractItemModel(parent) {}

void EventBrowserModel::setPage(std::vector<browse::BrowsedTransaction> transactions, std::optional<size_t> target,
                                std::vector<binlog::BinlogFileSize> files) {
    beginResetModel();
    transactions_ = std::move(transactions);
    rowCheck_.clear();
    target_ = target;
    files_ = std::move(files);
    endResetModel();
}

void EventBrowserModel::setAppliedPoint(const browse::BrowsePoint& applied) {
    if (applied == applied_) {
        return;
    }
    applied_ = applied;
    if (!transactions_.empty()) {
        emit dataChanged(index(0, AppliedColumn), index(static_cast<int>(transactions_.size()) - 1, AppliedColumn));
    }
}

void EventBrowserModel::setRowCheck(std::vector<preview::TransactionRowCheck> check) {
    if (check.size() != transactions_.size()) {
        return;  // the check of another page
    }
    rowCheck_ = std::move(check);
    if (!transactions_.empty()) {
        emit dataChanged(index(0, AppliedColumn), index(static_cast<int>(transactions_.size()) - 1, AppliedColumn));
    }
}

const preview::TransactionRowCheck* EventBrowserModel::rowCheckAt(size_t row) const {
    return row < rowCheck_.size() ? &rowCheck_[row] : nullptr;
}

const browse::BrowsedTransaction* EventBrowserModel::transactionAt(const QModelIndex& index) const {
    if (!index.isValid()) {
        return nullptr;
    }
    size_t row = index.internalId() == kTransactionRow ? static_cast<size_t>(index.row())
                                                       : static_cast<size_t>(index.internalId() - 1);
    return row < transactions_.size() ? &transactions_[row] : nullptr;
}

const browse::BrowsedEvent* EventBrowserModel::eventAt(const QModelIndex& index) const {
    if (!index.isValid() || index.internalId() == kTransactionRow) {
        return nullptr;
    }
    const auto* trx = transactionAt(index);
    size_t row = static_cast<size_t>(index.row());
    return trx != nullptr && row < trx->events.size() ? &trx->events[row] : nullptr;
}

QModelIndex EventBrowserModel::targetIndex() const {
    return target_ && *target_ < transactions_.size() ? index(static_cast<int>(*target_), 0) : QModelIndex();
}

QModelIndex EventBrowserModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column >= ColumnCount) {
        return {};
    }
    if (!parent.isValid()) {
        return static_cast<size_t>(row) < transactions_.size() ? createIndex(row, column, kTransactionRow)
                                                               : QModelIndex();
    }
    if (parent.internalId() != kTransactionRow) {
        return {};
    }
    size_t trx = static_cast<size_t>(parent.row());
    if (trx >= transactions_.size() || static_cast<size_t>(row) >= transactions_[trx].events.size()) {
        return {};
    }
    return createIndex(row, column, static_cast<quintptr>(trx + 1));
}

QModelIndex EventBrowserModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == kTransactionRow) {
        return {};
    }
    return createIndex(static_cast<int>(child.internalId() - 1), 0, kTransactionRow);
}

int EventBrowserModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) {
        return static_cast<int>(transactions_.size());
    }
    if (parent.internalId() != kTransactionRow || parent.column() != 0) {
        return 0;
    }
    return static_cast<int>(transactions_[static_cast<size_t>(parent.row())].events.size());
}

int EventBrowserModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

QString EventBrowserModel::appliedText(const browse::BrowsedTransaction& trx, size_t row) const {
    if (trx.isMarker || !trx.complete) {
        return {};
    }
    QString text;
    if (!applied_.file.empty()) {
        text = browse::comparePoints({trx.endFile, trx.endPos}, applied_, files_) <= 0 ? tr("applied") : tr("not yet");
    }
    if (const auto* check = rowCheckAt(row); check != nullptr && check->checkedRows() > 0) {
        text += (text.isEmpty() ? QString() : QStringLiteral("; ")) + tr("rows: %1").arg(check->summary().c_str());
    }
    return text;
}

QVariant EventBrowserModel::transactionData(const browse::BrowsedTransaction& trx, size_t row, int column, int role,
                                            bool target) const {
    if (role == Qt::DisplayRole) {
        switch (column) {
            case PositionColumn:
                return QString::fromStdString(trx.file + ":" + std::to_string(trx.pos)) +
                       (trx.complete ? QStringLiteral(" .. %1").arg(trx.endPos) : tr(" (not ended)"));
            case TimeColumn:
                return QString::fromStdString(browse::formatLocalTime(trx.timestamp));
            case GtidColumn:
                return QString::fromStdString(trx.gtid);
            case TypeColumn:
                if (trx.isMarker) {
                    return trx.events.empty() ? QString() : QString::fromStdString(trx.events.front().type);
                }
                return trx.matchedEvents == trx.eventCount
                           ? tr("transaction, %n event(s)", nullptr, static_cast<int>(trx.eventCount))
                           : tr("transaction, %1 of %2 events").arg(trx.matchedEvents).arg(trx.eventCount);
            case TableColumn: {
                QStringList tables;
                for (const auto& event : trx.events) {
                    QString name = QString::fromStdString(event.schema + "." + event.table);
                    if (event.isRows() && !tables.contains(name)) {
                        tables.push_back(name);
                    }
                }
                return tables.join(QStringLiteral(", "));
            }
            case RowsColumn:
                return trx.isMarker ? QVariant() : QVariant(QString::number(trx.rowCount));
            case AppliedColumn:
                return appliedText(trx, row);
            default:
                return {};
        }
    }
    if (role == SortRole) {
        switch (column) {
            case PositionColumn:
                return QVariant::fromValue<qulonglong>(trx.pos);
            case TimeColumn:
                return trx.timestamp;
            case RowsColumn:
                return QVariant::fromValue<qulonglong>(trx.rowCount);
            default:
                return {};
        }
    }
    if (role == Qt::FontRole && target) {
        QFont font;
        font.setBold(true);
        return font;
    }
    if (role == Qt::ForegroundRole && trx.isMarker) {
        return QPalette().brush(QPalette::Disabled, QPalette::Text);
    }
    const auto* check = column == AppliedColumn ? rowCheckAt(row) : nullptr;
    if (role == Qt::ForegroundRole && check != nullptr && check->checkedRows() > check->equal) {
        return QBrush(Qt::red);  // a row of it is not as the upstream left it
    }
    if (role == Qt::ToolTipRole && column == AppliedColumn) {
        QStringList lines;
        if (!applied_.file.empty()) {
            lines.push_back(tr("Compared with the applied point %1").arg(QString::fromStdString(applied_.toString())));
        }
        if (check != nullptr) {
            for (const auto& checked : check->rows) {
                lines.push_back(QString::fromStdString(checked.text()));
            }
        }
        return lines.isEmpty() ? QVariant() : QVariant(lines.join(QLatin1Char('\n')));
    }
    if (role == IsTransactionRole) {
        return !trx.isMarker;
    }
    if (role == IsTargetRole) {
        return target;
    }
    return {};
}

void EventBrowserModel::setOnlineDdlRules(std::shared_ptr<const filter::OnlineDdlRules> rules) {
    onlineDdl_ = std::move(rules);
    if (!transactions_.empty()) {
        emit dataChanged(index(0, TableColumn), index(rowCount() - 1, TableColumn));
    }
}

QString EventBrowserModel::onlineDdlNote(const browse::BrowsedEvent& event) const {
    if (!onlineDdl_) {
        return {};
    }
    auto quoted = [](const std::string& schema, const std::string& table) {
        return QString::fromStdString(filter::TableName{schema, table}.quoted());
    };
    if (event.isRows() && !event.table.empty()) {
        filter::OnlineDdlRole role = onlineDdl_->roleOf(event.table);
        if (role == filter::OnlineDdlRole::Real) {
            return {};
        }
        return tr("%1 table of %2 for %3: never applied (online-ddl)")
            .arg(role == filter::OnlineDdlRole::Shadow ? tr("shadow") : tr("trash"),
                 QString::fromStdString(filter::OnlineDdlRules::toolOf(event.table)),
                 quoted(event.schema, onlineDdl_->realNameOf(event.table)));
    }
    if (event.operation != "ddl" || event.summary.empty()) {
        return {};
    }
    filter::ClassifiedStatement statement = filter::DdlClassifier::classify(event.summary, event.schema);
    const filter::TableName* shadowIn = nullptr;
    const filter::TableName* shadow = nullptr;
    const filter::TableName* tool = nullptr;
    for (size_t i = 0; i < statement.tables.size(); ++i) {
        const auto& reference = statement.tables[i];
        filter::OnlineDdlRole role = onlineDdl_->roleOf(reference.name.table);
        if (reference.role == filter::TableRole::Changed && role == filter::OnlineDdlRole::Shadow) {
            shadow = &reference.name;
            if (i + 1 < statement.tables.size() && statement.tables[i + 1].role == filter::TableRole::RenamedTo &&
                onlineDdl_->roleOf(statement.tables[i + 1].name.table) == filter::OnlineDdlRole::Real) {
                shadowIn = &statement.tables[i + 1].name;
            }
        } else if (role != filter::OnlineDdlRole::Real && reference.role != filter::TableRole::CopiedFrom) {
            tool = &reference.name;
        }
    }
    if (shadowIn != nullptr) {
        return tr("the swap of %1: the DDLs recorded on %2 run on %1; the rename is not run (online-ddl)")
            .arg(QString::fromStdString(shadowIn->quoted()), QString::fromStdString(shadow->quoted()));
    }
    if (shadow != nullptr) {
        bool records = statement.kind == filter::StatementKind::AlterTable ||
                       statement.kind == filter::StatementKind::CreateIndex ||
                       statement.kind == filter::StatementKind::DropIndex;
        return records ? tr("recorded on the shadow %1: runs on %2 at the swap (online-ddl)")
                             .arg(QString::fromStdString(shadow->quoted()),
                                  quoted(shadow->schema, onlineDdl_->realNameOf(shadow->table)))
                       : tr("on the shadow %1: not run downstream (online-ddl)")
                             .arg(QString::fromStdString(shadow->quoted()));
    }
    if (tool != nullptr) {
        return tr("on %1, a table of %2: not run downstream (online-ddl)")
            .arg(QString::fromStdString(tool->quoted()),
                 QString::fromStdString(filter::OnlineDdlRules::toolOf(tool->table)));
    }
    return {};
}

QVariant EventBrowserModel::eventData(const browse::BrowsedEvent& event, int column, int role) const {
    if ((role == Qt::DisplayRole || role == Qt::ToolTipRole) && column == TableColumn) {
        if (QString note = onlineDdlNote(event); !note.isEmpty()) {
            QString shown = event.table.empty() ? QString::fromStdString(event.summary)
                                                : QString::fromStdString(event.schema + "." + event.table);
            return role == Qt::DisplayRole ? shown + QStringLiteral("  [") + note + QStringLiteral("]")
                                           : note + QStringLiteral("\n") + QString::fromStdString(event.summary);
        }
    }
    if (role == Qt::DisplayRole) {
        switch (column) {
            case PositionColumn:
                return QString::fromStdString(event.file + ":" + std::to_string(event.pos));
            case TimeColumn:
                return QString::fromStdString(browse::formatLocalTime(event.timestamp));
            case GtidColumn:
                return QString::fromStdString(event.gtid);
            case TypeColumn:
                return QString::fromStdString(event.type) +
                       (event.operation.empty() ? QString() : QStringLiteral(" (%1)").arg(event.operation.c_str()));
            case TableColumn:
                if (!event.table.empty()) {
                    return QString::fromStdString(event.schema + "." + event.table);
                }
                return QString::fromStdString(event.summary);
            case RowsColumn:
                return event.isRows() ? QVariant(QString::number(event.rowCount)) : QVariant();
            default:
                return {};
        }
    }
    if (role == SortRole) {
        switch (column) {
            case PositionColumn:
                return QVariant::fromValue<qulonglong>(event.pos);
            case TimeColumn:
                return event.timestamp;
            case RowsColumn:
                return QVariant::fromValue<qulonglong>(event.rowCount);
            default:
                return {};
        }
    }
    if (role == Qt::ToolTipRole && column == TableColumn && !event.summary.empty()) {
        return QString::fromStdString(event.summary);
    }
    if (role == IsTransactionRole || role == IsTargetRole) {
        return false;
    }
    return {};
}

QVariant EventBrowserModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) {
        return {};
    }
    if (const auto* event = eventAt(index)) {
        return eventData(*event, index.column(), role);
    }
    const auto* trx = transactionAt(index);
    if (trx == nullptr) {
        return {};
    }
    bool target = target_ && *target_ == static_cast<size_t>(index.row());
    return transactionData(*trx, static_cast<size_t>(index.row()), index.column(), role, target);
}

QVariant EventBrowserModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
        case PositionColumn:
            return tr("Position");
        case TimeColumn:
            return tr("Time");
        case GtidColumn:
            return tr("GTID");
        case TypeColumn:
            return tr("Type");
        case TableColumn:
            return tr("Table / statement");
        case RowsColumn:
            return tr("Rows");
        case AppliedColumn:
            return tr("Downstream");
        default:
            return {};
    }
}

}  // namespace syncscope::ui
