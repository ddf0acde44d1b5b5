#include "ui/fleet/fleet_model.h"

#include <QBrush>
#include <QColor>
#include <QLocale>
#include <QThreadPool>

#include "ui/engine/snapshot_release.h"
#include "ui/models/checkpoint_anomaly.h"

namespace syncscope::ui {

namespace {

// The channel column sorts by "<first label of the entry><separator><place in the entry>".
constexpr char16_t kPlaceSeparator = 0x01;  // below every printable character: a shorter label sorts first
constexpr int kPlaceDigits = 4;

ChannelHealth healthOf(const task::StatusSnapshot* snapshot, bool lost, int anomalies) {
    if (lost || !snapshot) {
        return ChannelHealth::Failed;
    }
    switch (snapshot->stage) {
        case task::Stage::Error:
            return ChannelHealth::Failed;
        case task::Stage::Running:
            return anomalies > 0 ? ChannelHealth::Warning : ChannelHealth::Healthy;
        default:
            return anomalies > 0 ? ChannelHealth::Warning : ChannelHealth::Idle;
    }
}

// What a refresh changed in a row: nothing, the live figures only (lag and rows/s, which move on every tick of a
// running channel), or more (then the whole row: its colours, the filter's text and the sort by health follow).
enum class RowChange { None, LiveFigures, Whole };

RowChange changeOf(const FleetModel::Row& a, const FleetModel::Row& b) {
    const bool sameRest = a.label == b.label && a.stage == b.stage && a.health == b.health &&
                          a.anomalies == b.anomalies && a.lastError == b.lastError && a.host == b.host &&
                          a.lost == b.lost && a.kind == b.kind;
    if (!sameRest) {
        return RowChange::Whole;
    }
    return a.lagSeconds == b.lagSeconds && a.rowsPerSecond == b.rowsPerSecond ? RowChange::None
                                                                              : RowChange::LiveFigures;
}

}  // namespace

int anomalyCount(const task::StatusSnapshot& snapshot) {
    int count = 0;
    for (const auto& table : snapshot.tables) {
        count += isAnomaly(anomalyOf(table, snapshot)) ? 1 : 0;
    }
    return count;
}

FleetModel::FleetModel(QObject* parent) : QAbstractTableModel(parent) {}

FleetModel::~FleetModel() {
    while (!groups_.empty()) {
        removeGroup(int(groups_.size()) - 1);
    }
}

int FleetModel::addGroup(std::unique_ptr<ChannelGroup> group) {
    groups_.push_back(std::move(group));
    emit groupsChanged();
    return int(groups_.size()) - 1;
}

void FleetModel::removeGroup(int group) {
    if (group < 0 || size_t(group) >= groups_.size()) {
        return;
    }
    beginResetModel();
    std::shared_ptr<ChannelGroup> closing(std::move(groups_[size_t(group)]));
    groups_.erase(groups_.begin() + group);
    rows_.clear();
    endResetModel();
    // The last reference to a Task, a remote poller or a replica poller joins threads: not here.
    QThreadPool::globalInstance()->start([closing]() mutable { closing.reset(); });
    emit groupsChanged();
}

void FleetModel::setNotifications(int group, bool notify, double lagThresholdSeconds) {
    if (group >= 0 && size_t(group) < groups_.size()) {
        groups_[size_t(group)]->setNotifications(notify, lagThresholdSeconds);
        emit groupsChanged();
    }
}

int FleetModel::groupOfKey(const QString& key) const {
    for (size_t i = 0; i < groups_.size(); ++i) {
        if (groups_[i]->spec().key() == key) {
            return int(i);
        }
    }
    return -1;
}

QList<ChannelSpec> FleetModel::specs() const {
    QList<ChannelSpec> specs;
    for (const auto& group : groups_) {
        specs.append(group->spec());
    }
    return specs;
}

FleetModel::Row FleetModel::buildRow(int group, const ChannelHandle& handle, const ChannelConnection& connection,
                                     const Row* previous) const {
    Row row;
    row.group = group;
    row.label = handle.label;
    row.kind = groups_[size_t(group)]->spec().kind;
    row.host = groups_[size_t(group)]->host();
    row.task = handle.task;
    row.lastSeen = connection.lastSeen;
    row.lost = connection.lost;
    if (handle.task) {
        row.snapshot = handle.task->status();
    }
    const task::StatusSnapshot* snapshot = row.snapshot.get();
    if (snapshot) {
        // The table scan runs only when the engine published something new.
        const bool same = previous && previous->snapshot && previous->snapshot->sequence == snapshot->sequence &&
                          previous->task == row.task;
        row.anomalies = same ? previous->anomalies : anomalyCount(*snapshot);
        row.lagSeconds = snapshot->lagSeconds;
        row.rowsPerSecond = snapshot->recentRowsPerSecond;
        row.lastError = QString::fromStdString(snapshot->lastError);
        row.stage = QString::fromLatin1(task::stageName(snapshot->stage));
    }
    if (row.lost) {
        row.stage = tr("Lost");
        const QString seen =
            row.lastSeen ? tr("last seen %1").arg(QLocale().toString(row.lastSeen->time())) : tr("never reached");
        row.lastError = connection.problem.isEmpty() ? seen : tr("%1 (%2, reconnecting)").arg(connection.problem, seen);
        if (!handle.task) {
            row.lastError = connection.problem;
        }
    } else if (!handle.task) {
        row.stage = tr("Empty");
        row.lastError = connection.problem;
    }
    row.health = healthOf(snapshot, row.lost, row.anomalies);
    if (!handle.task && !row.lost) {
        row.health = ChannelHealth::Idle;
    }
    return row;
}

FleetModel::RefreshResult FleetModel::refresh() {
    RefreshResult result;
    std::vector<Row> fresh;
    fresh.reserve(rows_.size());
    for (size_t g = 0; g < groups_.size(); ++g) {
        const ChannelConnection connection = groups_[g]->connection();
        for (const ChannelHandle& handle : groups_[g]->channels()) {
            const size_t index = fresh.size();
            const Row* previous = nullptr;
            if (index < rows_.size() && rows_[index].group == int(g) && rows_[index].label == handle.label) {
                previous = &rows_[index];
            }
            fresh.push_back(buildRow(int(g), handle, connection, previous));
        }
    }
    bool sameSet = fresh.size() == rows_.size();
    for (size_t i = 0; sameSet && i < fresh.size(); ++i) {
        sameSet = fresh[i].group == rows_[i].group && fresh[i].task == rows_[i].task;
    }
    // A snapshot the engine has replaced may be held by this row only: freeing it (thousands of table points, each
    // with its strings) cost the GUI thread most of a fleet tick (snapshot_release.h).
    std::vector<std::shared_ptr<const task::StatusSnapshot>> replaced;
    for (size_t i = 0; i < rows_.size(); ++i) {
        if (rows_[i].snapshot && (i >= fresh.size() || rows_[i].snapshot != fresh[i].snapshot)) {
            replaced.push_back(std::move(rows_[i].snapshot));
        }
    }
    if (!sameSet) {
        beginResetModel();
        rows_ = std::move(fresh);
        endResetModel();
        releaseOffTheGuiThread(std::move(replaced));
        result.reset = true;
        result.changedRows = int(rows_.size());
        return result;
    }
    // One dataChanged per run of changed rows, over the columns that changed: a running fleet's rows change their lag
    // and rows/s on every tick, and the view repaints only the rectangle announced (the rest of a row's text, the
    // last error above all, is laid out again only when it changed).
    int runStart = -1;
    RowChange runChange = RowChange::None;
    auto closeRun = [&](int end) {
        if (runStart >= 0) {
            const bool whole = runChange == RowChange::Whole;
            emit dataChanged(index(runStart, whole ? 0 : int(LagColumn)),
                             index(end, whole ? ColumnCount - 1 : int(RowsPerSecondColumn)));
            ++result.dataChangedSignals;
            runStart = -1;
        }
    };
    for (size_t i = 0; i < fresh.size(); ++i) {
        const RowChange change = changeOf(fresh[i], rows_[i]);
        rows_[i] = std::move(fresh[i]);
        if (change != runChange || change == RowChange::None) {
            closeRun(int(i) - 1);
        }
        runChange = change;
        if (change != RowChange::None) {
            ++result.changedRows;
            if (runStart < 0) {
                runStart = int(i);
            }
        }
    }
    closeRun(int(rows_.size()) - 1);
    releaseOffTheGuiThread(std::move(replaced));
    return result;
}

int FleetModel::rowOfTask(const task::TaskControl* task) const {
    for (size_t i = 0; i < rows_.size(); ++i) {
        if (rows_[i].task.get() == task) {
            return int(i);
        }
    }
    return -1;
}

ChannelHealth FleetModel::worstHealth() const {
    ChannelHealth worst = ChannelHealth::Idle;
    for (const Row& row : rows_) {
        worst = std::max(worst, row.health);
    }
    return worst;
}

int FleetModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int FleetModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FleetModel::displayData(const Row& row, int column) const {
    const QLocale locale;
    switch (column) {
        case ChannelColumn:
            return row.label;
        case KindColumn:
            return kindName(row.kind);
        case StageColumn:
            return row.stage;
        case LagColumn:
            return row.snapshot && !row.lost ? tr("%1 s").arg(locale.toString(row.lagSeconds, 'f', 0)) : QString();
        case RowsPerSecondColumn:
            return row.snapshot && !row.lost ? locale.toString(row.rowsPerSecond, 'f', 0) : QString();
        case AnomaliesColumn:
            return row.anomalies > 0 ? locale.toString(row.anomalies) : QString();
        case LastErrorColumn:
            return row.lastError;
        case HostColumn:
            return row.host;
        default:
            return {};
    }
}

QVariant FleetModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || size_t(index.row()) >= rows_.size()) {
        return {};
    }
    const Row& row = rows_[size_t(index.row())];
    switch (role) {
        case Qt::DisplayRole:
            return displayData(row, index.column());
        case Qt::ToolTipRole:
            if (index.column() == LastErrorColumn || index.column() == StageColumn) {
                QString tip = row.lastError;
                if (row.snapshot && !row.snapshot->stageReason.empty()) {
                    tip = QString::fromStdString(row.snapshot->stageReason) + (tip.isEmpty() ? "" : "\n" + tip);
                }
                return tip;
            }
            return {};
        case Qt::TextAlignmentRole:
            if (index.column() == LagColumn || index.column() == RowsPerSecondColumn ||
                index.column() == AnomaliesColumn) {
                return QVariant(Qt::AlignRight | Qt::AlignVCenter);
            }
            return {};
        case Qt::ForegroundRole:
            if (index.column() == StageColumn || index.column() == LastErrorColumn) {
                if (row.health == ChannelHealth::Failed) {
                    return QBrush(QColor(0xc6, 0x28, 0x28));
                }
                if (row.health == ChannelHealth::Warning) {
                    return QBrush(QColor(0xb2, 0x6a, 0x00));
                }
            }
            return {};
        case SortRole:
            switch (index.column()) {
                case StageColumn:
                    return int(row.health);
                case LagColumn:
                    return row.lost ? -1.0 : row.lagSeconds;
                case RowsPerSecondColumn:
                    return row.rowsPerSecond;
                case AnomaliesColumn:
                    return row.anomalies;
                case ChannelColumn: {
                    // An entry's channels stay together in their own order (a task's subtasks under its row):
                    // sorted by the entry's first label, then by the place in the entry.
                    int first = index.row();
                    while (first > 0 && rows_[size_t(first - 1)].group == row.group) {
                        --first;
                    }
                    return QStringLiteral("%1%2%3")
                        .arg(rows_[size_t(first)].label)
                        .arg(QChar(kPlaceSeparator))
                        .arg(index.row() - first, kPlaceDigits, 10, QLatin1Char('0'));
                }
                default:
                    return displayData(row, index.column());
            }
        case HealthRole:
            return int(row.health);
        case SearchRole: {
            // Not the live figures: they change without the whole row being announced (refresh()).
            QStringList texts;
            for (int column = 0; column < ColumnCount; ++column) {
                if (column != LagColumn && column != RowsPerSecondColumn) {
                    texts << displayData(row, column).toString();
                }
            }
            return texts.join(QLatin1Char('\t'));
        }
        default:
            return {};
    }
}

QVariant FleetModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    switch (section) {
        case ChannelColumn:
            return tr("Channel");
        case KindColumn:
            return tr("Kind");
        case StageColumn:
            return tr("Stage");
        case LagColumn:
            return tr("Lag");
        case RowsPerSecondColumn:
            return tr("Rows/s");
        case AnomaliesColumn:
            return tr("Anomalies");
        case LastErrorColumn:
            return tr("Last error");
        case HostColumn:
            return tr("Host");
        default:
            return {};
    }
}

}  // namespace syncscope::ui
