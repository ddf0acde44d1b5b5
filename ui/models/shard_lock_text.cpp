#include "ui/models/shard_lock_text.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QStringList>
#include <algorithm>

namespace syncscope::ui {

namespace {

constexpr int64_t kSecondsPerMinute = 60;
constexpr int64_t kSecondsPerHour = 3600;
constexpr int kShortDdlLength = 60;  // a DDL quoted inside a sentence; the page and tooltips have it whole

QString tr(const char* text) {
    return QCoreApplication::translate("ShardLockText", text);
}

int64_t unixSeconds(task::Clock::time_point at) {
    return std::chrono::duration_cast<std::chrono::seconds>(at.time_since_epoch()).count();
}

QString shortDdl(const task::ShardLockStatus& lock) {
    if (lock.ddls.empty()) {
        return tr("its DDL");
    }
    QString ddl = QString::fromStdString(lock.ddls.front()).simplified();
    if (ddl.size() > kShortDdlLength) {
        ddl = ddl.left(kShortDdlLength - 1) + QChar(0x2026);
    }
    return lock.ddls.size() > 1 ? tr("%1 (and %2 more DDLs)").arg(ddl).arg(lock.ddls.size() - 1) : ddl;
}

QString waitedForList(const task::ShardLockStatus& lock) {
    QStringList waited;
    for (const auto& shard : lock.waitingFor) {
        waited << tr("%1 on source %2").arg(shardTableText(shard), QString::fromStdString(shard.sourceId));
    }
    return waited.join(QStringLiteral(", "));
}

}  // namespace

QString shardTableText(const task::ShardLockStatus::Shard& shard) {
    return QString::fromStdString(shard.table.text());
}

QString shardWithSourceText(const task::ShardLockStatus::Shard& shard) {
    return QString::fromStdString(shard.sourceId) + QLatin1Char(':') + shardTableText(shard);
}

QString shardLockDdlsText(const task::ShardLockStatus& lock) {
    QStringList ddls;
    for (const std::string& ddl : lock.ddls) {
        ddls << QString::fromStdString(ddl);
    }
    return ddls.join(QLatin1Char('\n'));
}

QString waitedText(int64_t seconds) {
    seconds = std::max<int64_t>(0, seconds);
    if (seconds < kSecondsPerMinute) {
        return tr("%1 s").arg(seconds);
    }
    if (seconds < kSecondsPerHour) {
        return tr("%1 min").arg(seconds / kSecondsPerMinute);
    }
    return tr("%1 h %2 min").arg(seconds / kSecondsPerHour).arg(seconds % kSecondsPerHour / kSecondsPerMinute);
}

QString sinceText(int64_t since, task::Clock::time_point now) {
    const QDateTime at = QDateTime::fromSecsSinceEpoch(since);
    const QDateTime current = QDateTime::fromSecsSinceEpoch(unixSeconds(now));
    // The time alone on the day it is; the date too when the lock has waited past midnight.
    const QString time = at.date() == current.date() ? at.toString(QStringLiteral("HH:mm:ss"))
                                                     : at.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    return tr("%1 (for %2)").arg(time, waitedText(unixSeconds(now) - since));
}

QString shardColumnLine(const task::ShardColumnStatus& column) {
    QStringList names;
    for (const auto& shard : column.awaited) {
        names << shardWithSourceText(shard);
    }
    return tr("Column %1 of %2, added by %3, is awaited from %4 shard tables (%5): their rows take its default")
        .arg(QString::fromStdString(column.column), QString::fromStdString(column.target.text()),
             shardWithSourceText(column.addedBy))
        .arg(column.awaited.size())
        .arg(names.join(QStringLiteral(", ")));
}

QString shardLockLine(const task::ShardLockStatus& lock, task::Clock::time_point now) {
    const QString target = QString::fromStdString(lock.target.text());
    const QString waited = waitedText(unixSeconds(now) - lock.since);
    QStringList names;
    for (const auto& shard : lock.waitingFor) {
        names << shardWithSourceText(shard);
    }
    if (lock.ranDownstream) {
        return tr("Shard DDL lock on %1 ran downstream; re-syncing %2").arg(target, names.join(QStringLiteral(", ")));
    }
    const size_t shards = lock.arrived.size() + lock.waitingFor.size();
    return tr("Shard DDL lock on %1 waits for %2 of %3 shard tables (%4) for %5")
        .arg(target)
        .arg(lock.waitingFor.size())
        .arg(shards)
        .arg(names.join(QStringLiteral(", ")), waited);
}

QString shardLockHoldText(const task::ShardLockStatus& lock, const std::string& sourceId) {
    const QString target = QString::fromStdString(lock.target.text());
    // The source's own arrival says where its global point is held; another source's when it is not known.
    const task::ShardLockStatus::Shard* arrival = lock.arrived.empty() ? nullptr : &lock.arrived.front();
    for (const auto& shard : lock.arrived) {
        if (shard.sourceId == sourceId) {
            arrival = &shard;
            break;
        }
    }
    const QString read =
        arrival ? tr("%1 read %2 at %3")
                      .arg(shardTableText(*arrival), shortDdl(lock), QString::fromStdString(arrival->position))
                : QString();
    if (lock.ranDownstream) {
        return tr("ahead of the global point because its source re-reads from the point held for the shard DDL lock "
                  "on %1, which ran downstream (%2); the table points pass over what was applied")
            .arg(target, read);
    }
    return tr("ahead of the global point because the shard DDL lock on %1 waits (%2; waiting for %3)")
        .arg(target, read, waitedForList(lock));
}

}  // namespace syncscope::ui
