#include "ui/models/table_checkpoint_model.h"

#include <QColor>
#include <QDateTime>
#include <QLocale>
#include <limits>

#include "ui/models/checkpoint_anomaly.h"
#include "ui/models/ui_resources.h"

namespace syncscope::ui {

namespace {

// Translucent, so the rows read in light and dark palettes alike.
const QColor kAheadBackground(220, 50, 47, 70);
const QColor kWarningBackground(230, 160, 20, 60);

bool samePoint(const task::PointView& a, const task::PointView& b) {
    return a.pos == b.pos && a.axis == b.axis && a.file == b.file && a.gtid == b.gtid;
}

bool sameRow(const task::TablePointView& a, const task::TablePointView& b) {
    return a.rowsApplied == b.rowsApplied && a.aheadOfGlobal == b.aheadOfGlobal &&
           a.bytesFromGlobal == b.bytesFromGlobal && a.eventsFromGlobal == b.eventsFromGlobal &&
           a.lastChange == b.lastChange && samePoint(a.inMemory, b.inMemory) && samePoint(a.persisted, b.persisted);
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
qulonglong pointSortKey(const task::PointView& point) {
    if (point.axis) {
        return *point.axis;
    }
    return point.known() ? std::numeric_limits<qulonglong>::max() - 1 : std::numeric_limits<qulonglong>::max();
}

}  // namespace

TableCheckpointModel::TableCheckpointModel(QObject* parent)
    : QAbstractTableModel(parent), aheadIcon_(aheadOfGlobalIcon()), warningIcon_(checkpointWarningIcon()) {}

TableCheckpointModel::UpdateResult TableCheckpointModel::setSnapshot(
    std::shared_ptr<const task::StatusSnapshot> snapshot) {
    UpdateResult result;
    if (!snapshot) {
        if (snapshot_) {
            beginResetModel();
            snapshot_.reset();
            countAnomalies();
            endResetModel();
            result.reset = true;
        }
        return result;
    }
    if (!snapshot_ || !sameTables(*snapshot_, *snapshot)) {
        beginResetModel();
        snapshot_ = std::move(snapshot);
        countAnomalies();
        endResetModel();
        result.reset = true;
        result.changedRows = rowCount();
        return result;
    }
    int first = -1;
    int last = -1;
    const auto& before = snapshot_->tables;
    const auto& after = snapshot->tables;
    for (size_t i = 0; i < after.size(); ++i) {
        if (!sameRow(before[i], after[i])) {
            if (first < 0) {
                first = int(i);
            }
            last = int(i);
            ++result.changedRows;
        }
    }
    // The anomaly of a row also depends on the upstream's position and files.
    const bool contextChanged = snapshot_->upstream.axis != snapshot->upstream.axis ||
                                snapshot_->upstreamFiles.size() != snapshot->upstreamFiles.size();
    snapshot_ = std::move(snapshot);
    countAnomalies();
    if (contextChanged && !after.empty()) {
        first = 0;
        last = int(after.size()) - 1;
    }
    if (first >= 0) {
        emit dataChanged(index(first, 0), index(last, ColumnCount - 1));
    }
    return result;
}

void TableCheckpointModel::countAnomalies() {
    anomalyCount_ = 0;
    aheadCount_ = 0;
    if (!snapshot_) {
        return;
    }
    for (const auto& table : snapshot_->tables) {
        const auto anomaly = anomalyOf(table, *snapshot_);
        anomalyCount_ += anomaly != CheckpointAnomaly::None ? 1 : 0;
        aheadCount_ += anomaly == CheckpointAnomaly::AheadOfGlobal ? 1 : 0;
    }
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
            if (column == BytesFromGlobalColumn) {
                return QString::number(table->bytesFromGlobal);
            }
            if (column == EventsFromGlobalColumn) {
                return QString::number(table->eventsFromGlobal);
            }
            if (column == RowsAppliedColumn) {
                return QString::number(table->rowsApplied);
            }
            if (column == LastChangeColumn) {
                return table->lastChange
                           ? QDateTime::fromMSecsSinceEpoch(msecsSinceEpoch(*table->lastChange)).toString(Qt::ISODate)
                           : QString();
            }
            return displayData(*table, column);
        case AnomalyRole:
            return int(anomalyOf(*table, *snapshot_));
        case AheadOfGlobalRole:
            return table->aheadOfGlobal;
        case Qt::TextAlignmentRole:
            if (column == BytesFromGlobalColumn || column == EventsFromGlobalColumn || column == RowsAppliedColumn) {
                return QVariant(Qt::AlignRight | Qt::AlignVCenter);
            }
            return {};
        case Qt::BackgroundRole:
            switch (anomalyOf(*table, *snapshot_)) {
                case CheckpointAnomaly::None:
                    return {};
                case CheckpointAnomaly::AheadOfGlobal:
                    return kAheadBackground;
                default:
                    return kWarningBackground;
            }
        case Qt::DecorationRole:
            if (column == FlagColumn) {
                const auto anomaly = anomalyOf(*table, *snapshot_);
                if (anomaly == CheckpointAnomaly::AheadOfGlobal) {
                    return aheadIcon_;
                }
                if (anomaly != CheckpointAnomaly::None) {
                    return warningIcon_;
                }
            }
            return {};
        case Qt::ToolTipRole:
            if (column == InMemoryColumn || column == PersistedColumn) {
                const auto& point = column == InMemoryColumn ? table->inMemory : table->persisted;
                QString text = pointText(point);
                if (!point.gtid.empty()) {
                    text += QStringLiteral("\nGTID ") + QString::fromStdString(point.gtid);
                }
                if (anomalyOf(*table, *snapshot_) == CheckpointAnomaly::None) {
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
        case LastChangeColumn:
            return table.lastChange ? QDateTime::fromMSecsSinceEpoch(msecsSinceEpoch(*table.lastChange))
                                          .toString(QStringLiteral("HH:mm:ss"))
                                    : QStringLiteral("-");
        case FlagColumn:
            return anomalyLabel(anomalyOf(table, *snapshot_));
        default:
            return {};
    }
}

QVariant TableCheckpointModel::sortData(const task::TablePointView& table, int column) const {
    switch (column) {
        case InMemoryColumn:
            return pointSortKey(table.inMemory);
        case PersistedColumn:
            return pointSortKey(table.persisted);
        case BytesFromGlobalColumn:
            return qlonglong(table.bytesFromGlobal);
        case EventsFromGlobalColumn:
            return qulonglong(table.eventsFromGlobal);
        case RowsAppliedColumn:
            return qulonglong(table.rowsApplied);
        case LastChangeColumn:
            return table.lastChange ? msecsSinceEpoch(*table.lastChange) : qint64(0);
        case FlagColumn:
            return int(anomalyOf(table, *snapshot_));
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
            case LastChangeColumn:
                return tr("Last change");
            case FlagColumn:
                return tr("Flag");
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
            case FlagColumn:
                return tr("Anomalies: ahead of the global point, beyond the upstream, or in a purged file");
            default:
                return {};
        }
    }
    return {};
}

}  // namespace syncscope::ui
