#include "ui/models/shard_lock_model.h"

#include <QColor>
#include <QFont>

#include <algorithm>

#include "ui/models/shard_lock_text.h"

namespace syncscope::ui {

namespace {

// Translucent amber, so the rows waited for read in light and dark palettes alike.
const QColor kWaitedForBackground(255, 170, 0, 70);

bool sameShard(const task::ShardLockStatus::Shard& a, const task::ShardLockStatus::Shard& b) {
    return a.sourceId == b.sourceId && a.table == b.table;
}

int64_t unixSeconds(task::Clock::time_point at) {
    return std::chrono::duration_cast<std::chrono::seconds>(at.time_since_epoch()).count();
}

const std::vector<task::ShardLockStatus> kNoLocks;
const std::vector<task::ShardColumnStatus> kNoColumns;

}  // namespace

ShardLockModel::ShardLockModel(QObject* parent) : QAbstractTableModel(parent) {}

void ShardLockModel::setSnapshot(std::shared_ptr<const task::StatusSnapshot> snapshot) {
    const auto& before = locks();
    const auto& after = snapshot ? snapshot->shardLocks : kNoLocks;
    if (before == after && columns() == (snapshot ? snapshot->shardColumns : kNoColumns)) {
        // The same rows (they index the locks, equal in both): only the time they have waited runs on.
        const bool newSecond = snapshot && snapshot_ && unixSeconds(snapshot->takenAt) != unixSeconds(now());
        snapshot_ = std::move(snapshot);
        if (newSecond && !rows_.empty()) {
            emit dataChanged(index(0, SinceColumn), index(rowCount() - 1, SinceColumn));
        }
        return;
    }
    beginResetModel();
    snapshot_ = std::move(snapshot);
    buildRows();
    endResetModel();
}

void ShardLockModel::buildRows() {
    rows_.clear();
    const auto& all = locks();
    for (size_t l = 0; l < all.size(); ++l) {
        const task::ShardLockStatus& lock = all[l];
        for (size_t s = 0; s < lock.arrived.size(); ++s) {
            ShardState state = ShardState::ReadTheDdl;
            if (lock.ranDownstream) {
                const bool reSyncing =
                    std::any_of(lock.waitingFor.begin(), lock.waitingFor.end(),
                                [&](const auto& waited) { return sameShard(waited, lock.arrived[s]); });
                state = reSyncing ? ShardState::ReSyncing : ShardState::ReSynced;
            }
            rows_.push_back({l, true, s, state});
        }
        for (size_t s = 0; s < lock.waitingFor.size(); ++s) {
            const bool listed = std::any_of(lock.arrived.begin(), lock.arrived.end(), [&](const auto& arrival) {
                return sameShard(arrival, lock.waitingFor[s]);
            });
            if (!listed) {  // a lock that ran lists its re-syncing arrivals again: their row is above
                rows_.push_back({l, false, s, lock.ranDownstream ? ShardState::ReSyncing : ShardState::WaitedFor});
            }
        }
    }
}

const std::vector<task::ShardLockStatus>& ShardLockModel::locks() const {
    return snapshot_ ? snapshot_->shardLocks : kNoLocks;
}

const std::vector<task::ShardColumnStatus>& ShardLockModel::columns() const {
    return snapshot_ ? snapshot_->shardColumns : kNoColumns;
}

task::Clock::time_point ShardLockModel::now() const {
    return snapshot_ ? snapshot_->takenAt : task::Clock::time_point{};
}

const task::ShardLockStatus* ShardLockModel::lockAt(int row) const {
    return row >= 0 && size_t(row) < rows_.size() ? &locks()[rows_[size_t(row)].lock] : nullptr;
}

const task::ShardLockStatus::Shard* ShardLockModel::shardAt(int row) const {
    const task::ShardLockStatus* lock = lockAt(row);
    if (!lock) {
        return nullptr;
    }
    const Row& r = rows_[size_t(row)];
    return r.arrival ? &lock->arrived[r.shard] : &lock->waitingFor[r.shard];
}

ShardLockModel::ShardState ShardLockModel::shardStateAt(int row) const {
    return row >= 0 && size_t(row) < rows_.size() ? rows_[size_t(row)].state : ShardState::ReadTheDdl;
}

int ShardLockModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int ShardLockModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ShardLockModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const Row& row = rows_[size_t(index.row())];
    const bool waitedFor = row.state == ShardState::WaitedFor || row.state == ShardState::ReSyncing;
    switch (role) {
        case Qt::DisplayRole:
            return displayData(row, index.column());
        case Qt::ToolTipRole:
            return tooltip(row, index.column());
        case Qt::BackgroundRole:
            return waitedFor ? QVariant(kWaitedForBackground) : QVariant();
        case Qt::FontRole:
            if (waitedFor && index.column() == ShardStateColumn) {
                QFont bold;
                bold.setBold(true);
                return bold;
            }
            return {};
        case WaitedForRole:
            return waitedFor;
        case ShardStateRole:
            return int(row.state);
        default:
            return {};
    }
}

QVariant ShardLockModel::displayData(const Row& row, int column) const {
    const task::ShardLockStatus& lock = locks()[row.lock];
    const task::ShardLockStatus::Shard& shard = row.arrival ? lock.arrived[row.shard] : lock.waitingFor[row.shard];
    switch (column) {
        case MergedTableColumn:
            return QString::fromStdString(lock.target.text());
        case LockStateColumn:
            return lock.ranDownstream ? tr("ran downstream, re-syncing") : tr("waiting");
        case SourceColumn:
            return QString::fromStdString(shard.sourceId);
        case ShardTableColumn:
            return shardTableText(shard);
        case ShardStateColumn:
            switch (row.state) {
                case ShardState::ReadTheDdl:
                    return tr("read the DDL");
                case ShardState::WaitedFor:
                    return tr("waited for");
                case ShardState::ReSyncing:
                    return tr("re-syncing");
                case ShardState::ReSynced:
                    return tr("re-synced");
            }
            return {};
        case PositionColumn:
            return row.arrival ? QString::fromStdString(shard.position) : QStringLiteral("-");
        case SinceColumn:
            return row.arrival ? sinceText(shard.since, now()) : QStringLiteral("-");
        case DdlColumn:
            return shardLockDdlsText(lock).replace(QLatin1Char('\n'), QStringLiteral("; "));
        default:
            return {};
    }
}

QString ShardLockModel::tooltip(const Row& row, int column) const {
    const task::ShardLockStatus& lock = locks()[row.lock];
    const task::ShardLockStatus::Shard& shard = row.arrival ? lock.arrived[row.shard] : lock.waitingFor[row.shard];
    if (column == DdlColumn) {
        return tr("Runs downstream on %1 once every shard table has read it:\n%2")
            .arg(QString::fromStdString(lock.target.text()), shardLockDdlsText(lock));
    }
    const QString name = shardWithSourceText(shard);
    switch (row.state) {
        case ShardState::ReadTheDdl:
            return tr("%1 read the DDL at %2: its later rows wait for the other shard tables, and source %3 holds "
                      "its global point before the DDL (its other tables go on applying)")
                .arg(name, QString::fromStdString(shard.position), QString::fromStdString(shard.sourceId));
        case ShardState::WaitedFor:
            return tr("%1 has not read the DDL yet: the lock runs it downstream once it has").arg(name);
        case ShardState::ReSyncing:
            return tr("The DDL ran downstream; source %1 reads again from its held global point, the table points "
                      "passing over what was applied")
                .arg(QString::fromStdString(shard.sourceId));
        case ShardState::ReSynced:
            return tr("The DDL ran downstream and %1 has read past it again").arg(name);
    }
    return {};
}

QVariant ShardLockModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) {
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (section) {
            case MergedTableColumn:
                return tr("Merged table");
            case LockStateColumn:
                return tr("Lock");
            case SourceColumn:
                return tr("Source");
            case ShardTableColumn:
                return tr("Shard table");
            case ShardStateColumn:
                return tr("Shard");
            case PositionColumn:
                return tr("Read the DDL at");
            case SinceColumn:
                return tr("Since");
            case DdlColumn:
                return tr("DDL");
            default:
                return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
            case MergedTableColumn:
                return tr("The downstream table the shard tables merge into");
            case LockStateColumn:
                return tr("Waiting for shard tables to read the DDL, or ran downstream with sources re-syncing");
            case ShardStateColumn:
                return tr("Whether this shard table read the DDL or is waited for");
            case PositionColumn:
                return tr("Where the shard table read the DDL, in its source's binlog");
            case SinceColumn:
                return tr("When the shard table read the DDL (local time), and how long ago");
            case DdlColumn:
                return tr("The DDLs as they run downstream, once");
            default:
                return {};
        }
    }
    return {};
}

}  // namespace syncscope::ui
