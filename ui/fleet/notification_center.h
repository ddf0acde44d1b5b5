// Desktop notifications for the fleet: a channel that fails (or is lost), whose lag passes its threshold,
// or whose anomalies appear. Debounced: a condition must hold for kHoldSeconds before it is announced
// (a lag spike of one refresh says nothing), it is announced once while it holds, and again at the
// earliest kRepeatSeconds after it cleared. Per channel, as its workspace entry says (on/off, lag
// threshold). Every notification is kept in the log model shown on the overview.
#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>
#include <deque>

#include "ui/fleet/fleet_model.h"

namespace syncscope::ui {

enum class NotificationKind { Failed, Lag, Anomaly, Recovered };

struct Notification {
    QDateTime at;
    QString channel;
    NotificationKind kind = NotificationKind::Failed;
    QString title;
    QString text;
};

class NotificationLogModel : public QAbstractTableModel {
    Q_OBJECT

public:
    static constexpr int kMaxEntries = 1000;
    enum Column { TimeColumn, ChannelColumn, WhatColumn, ColumnCount };

    explicit NotificationLogModel(QObject* parent = nullptr);
    void append(const Notification& notification);
    const Notification& at(int row) const { return entries_[size_t(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::deque<Notification> entries_;  // newest first
};

class NotificationCenter : public QObject {
    Q_OBJECT

public:
    static constexpr int kHoldSeconds = 3;
    static constexpr int kRepeatSeconds = 300;

    explicit NotificationCenter(QObject* parent = nullptr);

    // After each refresh of the model: compares every channel with what was seen before.
    void observe(const FleetModel& model, const QDateTime& now);
    NotificationLogModel* log() const { return log_; }

signals:
    void notified(const syncscope::ui::Notification& notification);

private:
    struct Condition {
        std::optional<QDateTime> since;      // when it started to hold
        std::optional<QDateTime> announced;  // while it holds, when it was announced
        std::optional<QDateTime> clearedAt;  // when it last stopped holding after an announcement
    };
    void track(Condition& condition, bool holds, const QDateTime& now, const Notification& notification);

    NotificationLogModel* log_;
    QHash<QString, Condition> conditions_;  // by channel label and kind
};

}  // namespace syncscope::ui

Q_DECLARE_METATYPE(syncscope::ui::Notification)
