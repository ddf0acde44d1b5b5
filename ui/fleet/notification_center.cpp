#include "ui/fleet/notification_center.h"

#include <QLocale>

namespace syncscope::ui {

NotificationLogModel::NotificationLogModel(QObject* parent) : QAbstractTableModel(parent) {}

void NotificationLogModel::append(const Notification& notification) {
    beginInsertRows({}, 0, 0);
    entries_.push_front(notification);
    endInsertRows();
    if (entries_.size() > size_t(kMaxEntries)) {
        beginRemoveRows({}, kMaxEntries, int(entries_.size()) - 1);
        entries_.resize(kMaxEntries);
        endRemoveRows();
    }
}

int NotificationLogModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(entries_.size());
}

int NotificationLogModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant NotificationLogModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || size_t(index.row()) >= entries_.size() || role != Qt::DisplayRole) {
        return {};
    }
    const Notification& entry = entries_[size_t(index.row())];
    switch (index.column()) {
        case TimeColumn:
            return QLocale().toString(entry.at, QLocale::ShortFormat);
        case ChannelColumn:
            return entry.channel;
        case WhatColumn:
            return entry.title + QStringLiteral(": ") + entry.text;
        default:
            return {};
    }
}

QVariant NotificationLogModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    const char* const names[] = {"Time", "Channel", "What happened"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

NotificationCenter::NotificationCenter(QObject* parent) : QObject(parent), log_(new NotificationLogModel(this)) {
    qRegisterMetaType<Notification>();
}

void NotificationCenter::track(Condition& condition, bool holds, const QDateTime& now,
                               const Notification& notification) {
    if (!holds) {
        if (condition.announced) {
            condition.clearedAt = now;
        }
        condition.since.reset();
        condition.announced.reset();
        return;
    }
    if (!condition.since) {
        condition.since = now;
    }
    const bool heldLongEnough = condition.since->secsTo(now) >= kHoldSeconds;
    const bool repeatAllowed = !condition.clearedAt || condition.clearedAt->secsTo(now) >= kRepeatSeconds;
    if (!condition.announced && heldLongEnough && repeatAllowed) {
        condition.announced = now;
        log_->append(notification);
        emit notified(notification);
    }
}

void NotificationCenter::observe(const FleetModel& model, const QDateTime& now) {
    for (int i = 0; i < model.rowCount(); ++i) {
        const FleetModel::Row& row = model.rowAt(i);
        const ChannelSpec& spec = model.group(row.group).spec();
        if (!spec.notify) {
            continue;
        }
        const QString key = row.label + QLatin1Char('\t');
        Notification base;
        base.at = now;
        base.channel = row.label;

        Notification failed = base;
        failed.kind = NotificationKind::Failed;
        failed.title = row.lost ? tr("Connection lost") : tr("Channel failed");
        failed.text = row.lastError.isEmpty() ? row.stage : row.lastError;
        track(conditions_[key + QLatin1Char('F')], row.health == ChannelHealth::Failed, now, failed);

        Notification lag = base;
        lag.kind = NotificationKind::Lag;
        lag.title = tr("Lag above %1 s").arg(spec.lagThresholdSeconds);
        lag.text = tr("%1 s behind the upstream").arg(QLocale().toString(row.lagSeconds, 'f', 0));
        track(conditions_[key + QLatin1Char('L')], !row.lost && row.lagSeconds > spec.lagThresholdSeconds, now, lag);

        Notification anomaly = base;
        anomaly.kind = NotificationKind::Anomaly;
        anomaly.title = tr("Checkpoint anomaly");
        anomaly.text =
            tr("%n table point(s) flagged (ahead of global, beyond upstream or purged)", nullptr, row.anomalies);
        track(conditions_[key + QLatin1Char('A')], row.anomalies > 0, now, anomaly);
    }
}

}  // namespace syncscope::ui
