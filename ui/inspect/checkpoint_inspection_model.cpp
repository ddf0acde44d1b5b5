#include "ui/inspect/checkpoint_inspection_model.h"

#include <QColor>
#include <QFont>

#include "ui/models/ui_resources.h"

namespace syncscope::ui {

namespace {

// Translucent, so the rows read in light and dark palettes alike (as in the table checkpoints page).
const QColor kAheadBackground(220, 50, 47, 70);
const QColor kWarningBackground(230, 160, 20, 60);

QString text(const std::string& value) {
    return QString::fromStdString(value);
}

QString positionText(const binlog::Location& location, const inspect::CheckpointRow& row) {
    if (!location.position().isEmpty()) {
        return QStringLiteral("%1:%2").arg(text(location.position().file())).arg(location.position().offset());
    }
    // Unreadable or empty: show what is stored, so the DBA sees the bad value.
    if (row.binlogName.empty() && !row.binlogPos) {
        return {};
    }
    return QStringLiteral("%1:%2").arg(text(row.binlogName),
                                       row.binlogPos ? QString::number(*row.binlogPos) : QStringLiteral("NULL"));
}

// In the DBA's words: where the point's file is among the upstream's binlog files.
QString placementText(binlog::AxisPlacement placement) {
    switch (placement) {
        case binlog::AxisPlacement::OnAxis:
            return CheckpointInspectionModel::tr("in a file it has");
        case binlog::AxisPlacement::Purged:
            return CheckpointInspectionModel::tr("file purged");
        case binlog::AxisPlacement::NotYetWritten:
            return CheckpointInspectionModel::tr("file not yet written");
        case binlog::AxisPlacement::UnknownFile:
            return CheckpointInspectionModel::tr("unknown file");
    }
    return {};
}

bool hasKind(const std::vector<inspect::CheckpointAnomaly>& anomalies, inspect::AnomalyKind kind) {
    for (const auto& anomaly : anomalies) {
        if (anomaly.kind == kind) {
            return true;
        }
    }
    return false;
}

// A row of one source of a checkpoint table, its other fields empty.
CheckpointInspectionModel::PointRow rowOf(const inspect::InspectedCheckpointTable& table,
                                          const inspect::InspectedSource& source) {
    CheckpointInspectionModel::PointRow row;
    row.checkpointTable = QStringLiteral("`%1`.`%2`").arg(text(table.metaSchema), text(table.tableName));
    row.task = text(table.taskName);
    row.sourceId = text(source.sourceId);
    return row;
}

CheckpointInspectionModel::PointRow makePointRow(const inspect::InspectedCheckpointTable& table,
                                                 const inspect::InspectedSource& source,
                                                 const inspect::InspectedPoint& point) {
    CheckpointInspectionModel::PointRow row = rowOf(table, source);
    row.isGlobal = point.row.isGlobal;
    row.pointOf = point.row.isGlobal ? QStringLiteral("global")
                                     : QStringLiteral("%1.%2").arg(text(point.row.schema), text(point.row.table));
    row.position = positionText(point.location, point.row);
    row.gtid = point.location.hasGtids() ? text(point.location.gtidText()) : text(point.row.binlogGtid);
    if (!point.exitSafePoint.isEmpty()) {
        row.exitSafe = text(point.exitSafePoint.toString());
    }
    if (point.placement) {
        row.upstream = placementText(*point.placement);
    }
    row.anomalies = point.anomalies;
    for (const auto& anomaly : point.anomalies) {
        if (anomaly.kind == inspect::AnomalyKind::TableAheadOfGlobal && anomaly.skipWindow) {
            const auto& window = *anomaly.skipWindow;
            row.skippedBytes = window.bytes;
            row.skippedEvents = window.events;
            row.skippedTableEvents = window.tableRowsEvents;
            row.skippedTransactions = window.transactions;
            row.eventsCapped = window.eventsCapped;
        }
    }
    row.updated = text(point.row.updateTime);
    return row;
}

CheckpointInspectionModel::PointRow makeMarkRow(const inspect::InspectedCheckpointTable& table,
                                                const inspect::InspectedSource& source,
                                                const inspect::InspectedAppliedMark& mark) {
    CheckpointInspectionModel::PointRow row = rowOf(table, source);
    row.appliedMark = true;
    row.pointOf = CheckpointInspectionModel::tr("%1.%2 (applied mark)").arg(text(mark.schema), text(mark.table));
    row.position = CheckpointInspectionModel::tr("%1:%2 row %3")
                       .arg(text(mark.event.file()))
                       .arg(mark.event.offset())
                       .arg(mark.row);
    if (mark.placement) {
        row.upstream = placementText(*mark.placement);
    }
    return row;
}

// The marks of one source, or a row saying why they could not be read.
void appendMarkRows(const inspect::InspectedCheckpointTable& table, const inspect::InspectedSource& source,
                    std::vector<CheckpointInspectionModel::PointRow>& rows) {
    if (!source.appliedMarksProblem.empty()) {
        CheckpointInspectionModel::PointRow problem = rowOf(table, source);
        problem.pointOf = CheckpointInspectionModel::tr("applied marks");
        problem.appliedMark = true;
        problem.missing = true;
        problem.anomalies.push_back({inspect::AnomalyKind::UnreadablePoint, source.appliedMarksProblem, std::nullopt});
        rows.push_back(std::move(problem));
    }
    for (const auto& mark : source.appliedMarks) {
        rows.push_back(makeMarkRow(table, source, mark));
    }
}

}  // namespace

CheckpointInspectionModel::CheckpointInspectionModel(QObject* parent) : QAbstractTableModel(parent) {}

void CheckpointInspectionModel::setReport(const inspect::InspectionReport& report) {
    std::vector<PointRow> rows;
    for (const auto& table : report.tables) {
        if (!table.problem.empty()) {
            PointRow problem;
            problem.checkpointTable = QStringLiteral("`%1`.`%2`").arg(text(table.metaSchema), text(table.tableName));
            problem.task = text(table.taskName);
            problem.pointOf = tr("(whole table)");
            problem.missing = true;
            problem.anomalies.push_back({inspect::AnomalyKind::UnreadablePoint, table.problem, std::nullopt});
            rows.push_back(std::move(problem));
        }
        for (const auto& source : table.sources) {
            if (source.global) {
                PointRow global = makePointRow(table, source, *source.global);
                global.anomalies.insert(global.anomalies.begin(), source.anomalies.begin(), source.anomalies.end());
                rows.push_back(std::move(global));
            } else {
                PointRow missing = rowOf(table, source);
                missing.pointOf = tr("global (missing)");
                missing.isGlobal = true;
                missing.missing = true;
                missing.anomalies = source.anomalies;
                rows.push_back(std::move(missing));
            }
            for (const auto& point : source.tables) {
                rows.push_back(makePointRow(table, source, point));
            }
            appendMarkRows(table, source, rows);
        }
    }
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
}

void CheckpointInspectionModel::clear() {
    beginResetModel();
    rows_.clear();
    endResetModel();
}

int CheckpointInspectionModel::anomalyRowCount() const {
    int count = 0;
    for (const auto& row : rows_) {
        count += row.anomalies.empty() ? 0 : 1;
    }
    return count;
}

int CheckpointInspectionModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int CheckpointInspectionModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString CheckpointInspectionModel::anomalyLabel(inspect::AnomalyKind kind) {
    switch (kind) {
        case inspect::AnomalyKind::TableAheadOfGlobal:
            return tr("ahead of global");
        case inspect::AnomalyKind::TableUnorderedToGlobal:
            return tr("unordered to global");
        case inspect::AnomalyKind::BeyondUpstream:
            return tr("beyond upstream");
        case inspect::AnomalyKind::UnorderedToUpstream:
            return tr("unordered to upstream");
        case inspect::AnomalyKind::FileNotOnUpstream:
            return tr("file not on upstream");
        case inspect::AnomalyKind::MissingGlobalRow:
            return tr("missing global row");
        case inspect::AnomalyKind::UnreadablePoint:
            return tr("unreadable");
    }
    return tr("unknown");
}

QVariant CheckpointInspectionModel::displayData(const PointRow& row, int column) const {
    auto count = [](const std::optional<quint64>& value, bool capped) -> QVariant {
        if (!value) {
            return {};
        }
        return capped ? tr(">= %1").arg(*value) : QString::number(*value);
    };
    switch (column) {
        case TaskColumn:
            return row.task;
        case SourceColumn:
            return row.sourceId;
        case PointOfColumn:
            return row.pointOf;
        case PositionColumn:
            return row.position;
        case GtidColumn:
            return row.gtid;
        case UpstreamColumn:
            return row.upstream;
        case SkippedBytesColumn:
            return row.skippedBytes ? QVariant(QString::number(*row.skippedBytes)) : QVariant();
        case SkippedEventsColumn:
            return count(row.skippedEvents, row.eventsCapped);
        case SkippedTableEventsColumn:
            return count(row.skippedTableEvents, row.eventsCapped);
        case FlagColumn: {
            QStringList labels;
            for (const auto& anomaly : row.anomalies) {
                labels << anomalyLabel(anomaly.kind);
            }
            return labels.join(QStringLiteral(", "));
        }
        case UpdatedColumn:
            return row.updated;
        default:
            return {};
    }
}

QVariant CheckpointInspectionModel::sortData(const PointRow& row, int column) const {
    switch (column) {
        case SkippedBytesColumn:
            return row.skippedBytes ? QVariant(qlonglong(*row.skippedBytes)) : QVariant(qlonglong(-1));
        case SkippedEventsColumn:
            return row.skippedEvents ? QVariant(qulonglong(*row.skippedEvents)) : QVariant(qulonglong(0));
        case SkippedTableEventsColumn:
            return row.skippedTableEvents ? QVariant(qulonglong(*row.skippedTableEvents)) : QVariant(qulonglong(0));
        case FlagColumn:
            return int(row.anomalies.size());
        default:
            return displayData(row, column);
    }
}

QString CheckpointInspectionModel::toolTip(const PointRow& row) const {
    QStringList lines;
    lines << tr("%1, source %2: %3")
                 .arg(row.checkpointTable, row.sourceId.isEmpty() ? tr("-") : row.sourceId, row.pointOf);
    if (!row.position.isEmpty()) {
        lines << tr("Point: %1").arg(row.position);
    }
    if (!row.gtid.isEmpty()) {
        lines << tr("GTID: %1").arg(row.gtid);
    }
    if (!row.exitSafe.isEmpty()) {
        lines << tr("Exit-safe point: %1").arg(row.exitSafe);
    }
    if (row.appliedMark && !row.missing) {
        lines << QString()
              << tr("This table has no key, so a replayed row could not be told from a committed one. Its rows up "
                    "to this row of this rows event are committed downstream (written in the same transaction); "
                    "after an unclean stop, the replay from the global point drops them instead of applying them "
                    "twice.");
    }
    for (const auto& anomaly : row.anomalies) {
        lines << QString() << QStringLiteral("%1: %2").arg(anomalyLabel(anomaly.kind), text(anomaly.message));
    }
    return lines.join(QLatin1Char('\n'));
}

QVariant CheckpointInspectionModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const PointRow& row = rows_[size_t(index.row())];
    const bool ahead = hasKind(row.anomalies, inspect::AnomalyKind::TableAheadOfGlobal);
    switch (role) {
        case Qt::DisplayRole:
            return displayData(row, index.column());
        case SortRole:
            return sortData(row, index.column());
        case HasAnomalyRole:
            return !row.anomalies.empty();
        case AheadOfGlobalRole:
            return ahead;
        case Qt::ToolTipRole:
            return toolTip(row);
        case Qt::BackgroundRole:
            if (ahead) {
                return kAheadBackground;
            }
            return row.anomalies.empty() ? QVariant() : QVariant(kWarningBackground);
        case Qt::DecorationRole:
            if (index.column() == FlagColumn && !row.anomalies.empty()) {
                return ahead ? aheadOfGlobalIcon() : checkpointWarningIcon();
            }
            return {};
        case Qt::TextAlignmentRole:
            if (index.column() >= SkippedBytesColumn && index.column() <= SkippedTableEventsColumn) {
                return QVariant(Qt::AlignRight | Qt::AlignVCenter);
            }
            return {};
        case Qt::FontRole:
            if (row.isGlobal || row.appliedMark) {
                QFont font;
                font.setBold(row.isGlobal);
                font.setItalic(row.appliedMark);
                return font;
            }
            return {};
        default:
            return {};
    }
}

QVariant CheckpointInspectionModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    static const char* const kTitles[ColumnCount] = {
        QT_TR_NOOP("Task"),
        QT_TR_NOOP("Source"),
        QT_TR_NOOP("Point of"),
        QT_TR_NOOP("Flag"),
        QT_TR_NOOP("Skipped bytes"),
        QT_TR_NOOP("Skipped events"),
        QT_TR_NOOP("Table's events skipped"),
        QT_TR_NOOP("Position"),
        QT_TR_NOOP("GTID"),
        QT_TR_NOOP("On upstream"),
        QT_TR_NOOP("Updated"),
    };
    static const char* const kTips[ColumnCount] = {
        QT_TR_NOOP("The task whose checkpoint table this is (<task>_syncer_checkpoint)"),
        QT_TR_NOOP("The source-id (DM's id column)"),
        QT_TR_NOOP("The global point or the table the point belongs to"),
        QT_TR_NOOP("What is wrong with this point"),
        QT_TR_NOOP("Binlog bytes between the global point and this table point: the window a resume skips"),
        QT_TR_NOOP("Events in that window, counted on the upstream's binlog"),
        QT_TR_NOOP("Rows events of this table in that window: what a resume from the global point skips"),
        QT_TR_NOOP("binlog file:position as stored"),
        QT_TR_NOOP("GTID set as stored (empty without GTIDs)"),
        QT_TR_NOOP("Where the point lies on the upstream's binlog files (needs an upstream)"),
        QT_TR_NOOP("update_time of the row"),
    };
    if (role == Qt::DisplayRole) {
        return tr(kTitles[section]);
    }
    if (role == Qt::ToolTipRole) {
        return tr(kTips[section]);
    }
    return QAbstractTableModel::headerData(section, orientation, role);
}

}  // namespace syncscope::ui
