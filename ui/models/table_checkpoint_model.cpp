#include "ui/models/table_checkpoint_model.h"

#include <QColor>
#include <QDateTime>
#include <QLocale>
#include <algorithm>
#include <bit>
#include <limits>

#include "ui/models/checkpoint_anomaly.h"
#include "ui/models/online_change_text.h"
#include "ui/models/shard_lock_text.h"
#include "ui/models/ui_resources.h"

namespace syncscope::ui {

namespace {

// Translucent, so the rows read in light and dark palettes alike.
const QColor kAheadBackground(220, 50, 47, 70);
const QColor kWarningBackground(230, 160, 20, 60);
const QColor kDifferencesText(229, 57, 53);
// Sorting the Verified column: unverified first, then equal, then by differences; failed last.
constexpr int64_t kUnverifiedSortKey = -1;
constexpr int64_t kFailedSortKey = std::numeric_limits<int64_t>::max();

bool samePoint(const task::PointView& a, const task::PointView& b) {
    return a.pos == b.pos && a.axis == b.axis && a.file == b.file && a.gtid == b.gtid;
}

using Column = TableCheckpointModel::Column;

// The columns of a row that differ between two snapshots, as a bit per column.
unsigned changedColumns(const task::TablePointView& a, const task::TablePointView& b) {
    unsigned columns = 0;
    auto mark = [&columns](bool differs, Column column) { columns |= differs ? 1U << column : 0U; };
    mark(!samePoint(a.inMemory, b.inMemory), Column::InMemoryColumn);
    mark(!samePoint(a.persisted, b.persisted), Column::PersistedColumn);
    mark(a.bytesFromGlobal != b.bytesFromGlobal, Column::BytesFromGlobalColumn);
    mark(a.eventsFromGlobal != b.eventsFromGlobal, Column::EventsFromGlobalColumn);
    mark(a.rowsApplied != b.rowsApplied, Column::RowsAppliedColumn);
    mark(a.rowsUnmatched != b.rowsUnmatched, Column::RowsUnmatchedColumn);
    mark(a.lastChange != b.lastChange, Column::LastChangeColumn);
    return columns;
}

constexpr unsigned kEveryColumn = (1U << TableCheckpointModel::ColumnCount) - 1;

int firstColumnOf(unsigned columns) {
    return std::countr_zero(columns);
}

int lastColumnOf(unsigned columns) {
    return int(sizeof(unsigned) * 8) - 1 - std::countl_zero(columns);
}

bool sameTables(const task::StatusSnapshot& a, const task::StatusSnapshot& b) {
    if (a.tables.size() != b.tables.size()) {
        return false;
    }
    for (size_t i = 0; i < a.tables.size(); ++i) {
        if (a.tables[i].table != b.tables[i].table || a.tables[i].schema != b.tables[i].schema) {
            return false;
        }
    }
    return true;
}

qint64 msecsSinceEpoch(const task::Clock::time_point& at) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count();
}

// Sorting by the point itself: the axis when known, else a value past every known point.
int64_t pointSortKey(const task::PointView& point) {
    if (point.axis) {
        return int64_t(*point.axis);
    }
    return point.known() ? std::numeric_limits<int64_t>::max() - 1 : std::numeric_limits<int64_t>::max();
}

}  // namespace

TableCheckpointModel::TableCheckpointModel(QObject* parent)
    : QAbstractTableModel(parent), aheadIcon_(aheadOfGlobalIcon()), warningIcon_(checkpointWarningIcon()) {}

TableCheckpointModel::UpdateResult TableCheckpointModel::setSnapshot(
    std::shared_ptr<const task::StatusSnapshot> snapshot) {
    UpdateResult result;
    if (!snapshot || !snapshot_ || !sameTables(*snapshot_, *snapshot)) {
        if (snapshot || snapshot_) {
            resetTo(std::move(snapshot));
            result.reset = true;
            result.changedRows = rowCount();
        }
        return result;
    }
    // One pass: the changed columns of each row (an anomaly that changed repaints the whole row, whose
    // colour it sets), gathered into runs of adjacent changed rows.
    runs_.clear();
    const auto& before = snapshot_->tables;
    const auto& after = snapshot->tables;
    unsigned spanned = 0;
    for (size_t i = 0; i < after.size(); ++i) {
        const CheckpointAnomaly anomaly = anomalyOf(after[i], *snapshot);
        unsigned columns = changedColumns(before[i], after[i]);
        if (anomaly != anomalies_[i]) {
            anomalies_[i] = anomaly;
            columns = kEveryColumn;
        }
        if (columns == 0) {
            continue;
        }
        ++result.changedRows;
        spanned |= columns;
        const int row = int(i);
        if (!runs_.empty() && runs_.back().lastRow == row - 1) {
            ChangedRun& run = runs_.back();
            run.lastRow = row;
            run.firstColumn = std::min(run.firstColumn, firstColumnOf(columns));
            run.lastColumn = std::max(run.lastColumn, lastColumnOf(columns));
        } else {
            runs_.push_back({row, row, firstColumnOf(columns), lastColumnOf(columns)});
        }
    }
    const bool onlineChanged = snapshot_->onlineChanges != snapshot->onlineChanges;
    snapshot_ = std::move(snapshot);
    countAnomalies();
    if (onlineChanged && rowCount() > 0) {
        emit dataChanged(index(0, OnlineChangeColumn), index(rowCount() - 1, OnlineChangeColumn));
        ++result.dataChangedSignals;
    }
    if (runs_.size() > size_t(kMaxRangesPerRefresh)) {
        emit dataChanged(index(runs_.front().firstRow, firstColumnOf(spanned)),
                         index(runs_.back().lastRow, lastColumnOf(spanned)));
        ++result.dataChangedSignals;
        return result;
    }
    for (const ChangedRun& run : runs_) {
        emit dataChanged(index(run.firstRow, run.firstColumn), index(run.lastRow, run.lastColumn));
    }
    result.dataChangedSignals += int(runs_.size());
    return result;
}

void TableCheckpointModel::resetTo(std::shared_ptr<const task::StatusSnapshot> snapshot) {
    beginResetModel();
    snapshot_ = std::move(snapshot);
    anomalies_.clear();
    if (snapshot_) {
        anomalies_.reserve(snapshot_->tables.size());
        for (const auto& table : snapshot_->tables) {
            anomalies_.push_back(anomalyOf(table, *snapshot_));
        }
    }
    runs_.reserve(size_t(kMaxRangesPerRefresh) + 1);
    countAnomalies();
    endResetModel();
}

void TableCheckpointModel::countAnomalies() {
    anomalyCount_ = 0;
    aheadCount_ = 0;
    aheadForShardLockCount_ = 0;
    for (const CheckpointAnomaly anomaly : anomalies_) {
        anomalyCount_ += isAnomaly(anomaly) ? 1 : 0;
        aheadCount_ += anomaly == CheckpointAnomaly::AheadOfGlobal ? 1 : 0;
        aheadForShardLockCount_ += anomaly == CheckpointAnomaly::AheadForShardLock ? 1 : 0;
    }
}

CheckpointAnomaly TableCheckpointModel::anomalyAt(int row) const {
    return row >= 0 && size_t(row) < anomalies_.size() ? anomalies_[size_t(row)] : CheckpointAnomaly::None;
}

bool TableCheckpointModel::numericSortKey(int row, int column, int64_t* key) const {
    const task::TablePointView* table = tableAt(row);
    if (!table) {
        return false;
    }
    switch (column) {
        case InMemoryColumn:
            *key = pointSortKey(table->inMemory);
            return true;
        case PersistedColumn:
            *key = pointSortKey(table->persisted);
            return true;
        case BytesFromGlobalColumn:
            *key = table->bytesFromGlobal;
            return true;
        case EventsFromGlobalColumn:
            *key = int64_t(table->eventsFromGlobal);
            return true;
        case RowsAppliedColumn:
            *key = int64_t(table->rowsApplied);
            return true;
        case RowsUnmatchedColumn:
            *key = int64_t(table->rowsUnmatched);
            return true;
        case LastChangeColumn:
            *key = table->lastChange ? msecsSinceEpoch(*table->lastChange) : 0;
            return true;
        case FlagColumn:
            *key = int64_t(anomalyAt(row));
            return true;
        case VerifiedColumn: {
            const TableVerification* verification = verificationAt(row);
            *key = !verification                                           ? kUnverifiedSortKey
                   : verification->outcome == verify::TableOutcome::Failed ? kFailedSortKey
                                                                           : int64_t(verification->differences);
            return true;
        }
        default:
            return false;
    }
}

void TableCheckpointModel::setVerifications(TableVerifications verifications) {
    verifications_ = std::move(verifications);
    if (rowCount() > 0) {
        emit dataChanged(index(0, VerifiedColumn), index(rowCount() - 1, VerifiedColumn));
    }
}

const TableVerification* TableCheckpointModel::verificationAt(int row) const {
    const task::TablePointView* table = tableAt(row);
    if (!table || verifications_.isEmpty()) {
        return nullptr;
    }
    auto found = verifications_.constFind(verificationKey(table->schema, table->table));
    return found == verifications_.constEnd() ? nullptr : &found.value();
}

const task::OnlineChangeView* TableCheckpointModel::onlineChangeOf(const task::TablePointView& table) const {
    if (!snapshot_) {
        return nullptr;
    }
    for (const auto& change : snapshot_->onlineChanges) {
        if (change.real.schema == table.schema && change.real.table == table.table) {
            return &change;
        }
    }
    return nullptr;
}

const task::OnlineChangeView* TableCheckpointModel::onlineChangeAt(int row) const {
    const task::TablePointView* table = tableAt(row);
    return table ? onlineChangeOf(*table) : nullptr;
}

const task::TablePointView* TableCheckpointModel::tableAt(int row) const {
    if (!snapshot_ || row < 0 || row >= int(snapshot_->tables.size())) {
        return nullptr;
    }
    return &snapshot_->tables[size_t(row)];
}

int TableCheckpointModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !snapshot_ ? 0 : int(snapshot_->tables.size());
}

int TableCheckpointModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant TableCheckpointModel::data(const QModelIndex& index, int role) const {
    const task::TablePointView* table = index.isValid() ? tableAt(index.row()) : nullptr;
    if (!table) {
        return {};
    }
    const int column = index.column();
    switch (role) {
        case Qt::DisplayRole:
            return displayData(*table, column);
        case SortRole:
            return sortData(*table, column);
        case ExportRole:
            if (column == VerifiedColumn) {
                const TableVerification* verification = verificationAt(index.row());
                return verification ? verification->text() : QString();
            }
            if (column == BytesFromGlobalColumn) {
                return QString::number(table->bytesFromGlobal);
            }
            if (column == EventsFromGlobalColumn) {
                return QString::number(table->eventsFromGlobal);
            }
            if (column == RowsAppliedColumn) {
                return QString::number(table->rowsApplied);
            }
            if (column == RowsUnmatchedColumn) {
                return QString::number(table->rowsUnmatched);
            }
            if (column == LastChangeColumn) {
                return table->lastChange
                           ? QDateTime::fromMSecsSinceEpoch(msecsSinceEpoch(*table->lastChange)).toString(Qt::ISODate)
                           : QString();
            }
            return displayData(*table, column);
        case AnomalyRole:
            return int(anomalyAt(index.row()));
        case AheadOfGlobalRole:
            return table->aheadOfGlobal;
        case Qt::TextAlignmentRole:
            if (column == BytesFromGlobalColumn || column == EventsFromGlobalColumn || column == RowsAppliedColumn ||
                column == RowsUnmatchedColumn) {
                return QVariant(Qt::AlignRight | Qt::AlignVCenter);
            }
            return {};
        case Qt::ForegroundRole:
            if (column == FlagColumn && anomalyAt(index.row()) == CheckpointAnomaly::AheadForShardLock) {
                return kShardLockColor;
            }
            if (column == VerifiedColumn) {
                const TableVerification* verification = verificationAt(index.row());
                if (verification && verification->needsAttention()) {
                    return kDifferencesText;
                }
            }
            return {};
        case Qt::BackgroundRole:
            switch (anomalyAt(index.row())) {
                case CheckpointAnomaly::None:
                case CheckpointAnomaly::AheadForShardLock:  // expected: the flag's text and tooltip say why
                    return {};
                case CheckpointAnomaly::AheadOfGlobal:
                    return kAheadBackground;
                default:
                    return kWarningBackground;
            }
        case Qt::DecorationRole:
            if (column == FlagColumn) {
                const auto anomaly = anomalyAt(index.row());
                if (anomaly == CheckpointAnomaly::AheadOfGlobal) {
                    return aheadIcon_;
                }
                if (isAnomaly(anomaly)) {
                    return warningIcon_;
                }
            }
            return {};
        case Qt::ToolTipRole:
            if (column == VerifiedColumn) {
                const TableVerification* verification = verificationAt(index.row());
                return verification ? verification->text()
                                    : tr("Not verified: run a verify on the Verify tab (or syncscope-cli verify)");
            }
            if (column == OnlineChangeColumn) {
                const task::OnlineChangeView* change = onlineChangeOf(*table);
                return change ? onlineChangeDetails(*change) : tr("No online schema change is running on this table");
            }
            if (column == InMemoryColumn || column == PersistedColumn) {
                const auto& point = column == InMemoryColumn ? table->inMemory : table->persisted;
                QString text = pointText(point);
                if (!point.gtid.empty()) {
                    text += QStringLiteral("\nGTID ") + QString::fromStdString(point.gtid);
                }
                if (anomalyAt(index.row()) == CheckpointAnomaly::None) {
                    return text;
                }
            }
            return anomalyExplanation(*table, *snapshot_);
        default:
            return {};
    }
}

QVariant TableCheckpointModel::displayData(const task::TablePointView& table, int column) const {
    const QLocale locale;
    switch (column) {
        case SchemaColumn:
            return QString::fromStdString(table.schema);
        case TableColumn:
            return QString::fromStdString(table.table);
        case InMemoryColumn:
            return pointText(table.inMemory);
        case PersistedColumn:
            return pointText(table.persisted);
        case BytesFromGlobalColumn:
            return table.bytesFromGlobal > 0 ? QStringLiteral("+") + locale.toString(qlonglong(table.bytesFromGlobal))
                                             : locale.toString(qlonglong(table.bytesFromGlobal));
        case EventsFromGlobalColumn:
            return locale.toString(qulonglong(table.eventsFromGlobal));
        case RowsAppliedColumn:
            return locale.toString(qulonglong(table.rowsApplied));
        case RowsUnmatchedColumn:
            return locale.toString(qulonglong(table.rowsUnmatched));
        case LastChangeColumn:
            return table.lastChange ? QDateTime::fromMSecsSinceEpoch(msecsSinceEpoch(*table.lastChange))
                                          .toString(QStringLiteral("HH:mm:ss"))
                                    : QStringLiteral("-");
        case FlagColumn:
            return anomalyLabel(anomalyOf(table, *snapshot_));
        case VerifiedColumn: {
            auto found = verifications_.constFind(verificationKey(table.schema, table.table));
            return found == verifications_.constEnd() ? tr("not verified") : found->text();
        }
        case OnlineChangeColumn: {
            const task::OnlineChangeView* change = onlineChangeOf(table);
            return change ? onlineChangeSummary(*change) : QString();
        }
        default:
            return {};
    }
}

QVariant TableCheckpointModel::sortData(const task::TablePointView& table, int column) const {
    switch (column) {
        case InMemoryColumn:
            return qlonglong(pointSortKey(table.inMemory));
        case PersistedColumn:
            return qlonglong(pointSortKey(table.persisted));
        case BytesFromGlobalColumn:
            return qlonglong(table.bytesFromGlobal);
        case EventsFromGlobalColumn:
            return qulonglong(table.eventsFromGlobal);
        case RowsAppliedColumn:
            return qulonglong(table.rowsApplied);
        case RowsUnmatchedColumn:
            return qulonglong(table.rowsUnmatched);
        case LastChangeColumn:
            return table.lastChange ? msecsSinceEpoch(*table.lastChange) : qint64(0);
        case FlagColumn:
            return int(anomalyOf(table, *snapshot_));
        case VerifiedColumn: {
            auto found = verifications_.constFind(verificationKey(table.schema, table.table));
            return found == verifications_.constEnd()               ? qlonglong(kUnverifiedSortKey)
                   : found->outcome == verify::TableOutcome::Failed ? qlonglong(kFailedSortKey)
                                                                    : qlonglong(found->differences);
        }
        default:
            return displayData(table, column);
    }
}

QVariant TableCheckpointModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) {
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (section) {
            case SchemaColumn:
                return tr("Schema");
            case TableColumn:
                return tr("Table");
            case InMemoryColumn:
                return tr("In memory");
            case PersistedColumn:
                return tr("Persisted");
            case BytesFromGlobalColumn:
                return tr("Bytes from global");
            case EventsFromGlobalColumn:
                return tr("Events from global");
            case RowsAppliedColumn:
                return tr("Rows applied");
            case RowsUnmatchedColumn:
                return tr("Rows unmatched");
            case LastChangeColumn:
                return tr("Last change");
            case FlagColumn:
                return tr("Flag");
            case VerifiedColumn:
                return tr("Verified");
            case OnlineChangeColumn:
                return tr("Schema change");
            default:
                return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
            case InMemoryColumn:
                return tr("The table's checkpoint in the engine's memory: the last event of this table applied");
            case PersistedColumn:
                return tr(
                    "The table's checkpoint in the checkpoint table: a resume skips this table's events up "
                    "to here");
            case BytesFromGlobalColumn:
                return tr(
                    "Persisted table point minus persisted global point, in upstream bytes; positive means "
                    "ahead of the global point");
            case EventsFromGlobalColumn:
                return tr("Events of this table between the persisted global point and its persisted point");
            case RowsUnmatchedColumn:
                return tr(
                    "UPDATEs and DELETEs (outside safe mode) that found no row downstream: the downstream has "
                    "drifted from the upstream");
            case FlagColumn:
                return tr("Anomalies: ahead of the global point, beyond the upstream, or in a purged file");
            case VerifiedColumn:
                return tr(
                    "The table's last verify: the upstream position it was verified at and the rows that "
                    "differ");
            case OnlineChangeColumn:
                return tr(
                    "A running online schema change (pt-online-schema-change, gh-ost; the task sets online-ddl): "
                    "the rows of its copy read, and the DDLs that run on this table at the tool's swap");
            default:
                return {};
        }
    }
    return {};
}

}  // namespace syncscope::ui
