// What the DBA added to the workspace, one entry per local task, remote engine or replica server: enough
// to open it again on the next start. Never holds a password that was typed in (only a password file).
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <optional>

namespace syncscope::ui {

enum class ChannelKind { LocalTask, RemoteEngine, NativeReplica };

QString kindName(ChannelKind kind);  // "local task", "remote engine", "MariaDB replica"

struct ChannelSpec {
    static constexpr double kDefaultLagThresholdSeconds = 60;

    ChannelKind kind = ChannelKind::LocalTask;
    QString taskPath;  // local task
    QString sourcePath;
    QString host;  // remote engine, replica
    int port = 0;
    bool tls = false;  // remote engine
    QString caFile;
    QString tokenFile;
    QString user;          // replica (and, to decode failed events, its masters)
    QString passwordFile;  // first line is the password
    QString password;      // typed in this session; never saved
    QString auditPath;     // where replica commands are audited
    // Notifications for this channel.
    bool notify = true;
    double lagThresholdSeconds = kDefaultLagThresholdSeconds;

    // Identity in the workspace: the same task files or the same address are one entry.
    QString key() const;
    QString title() const;  // "orders.yaml", "10.0.0.5:8261", "replica 10.0.0.7:3306"
    QJsonObject toJson() const;
    // nullopt with the reason in `error` for an entry that names no kind, files or address.
    static std::optional<ChannelSpec> fromJson(const QJsonObject& json, QString* error);
    // Why the entry cannot be opened as typed (no host, a CA, token or password file that cannot be read);
    // empty when it can. The add dialogs keep OK disabled while there is one, so nothing is added.
    QString inputProblem() const;
    // The password to use: the typed one, else the password file's first line; empty when neither.
    QString resolvedPassword(QString* error) const;
};

}  // namespace syncscope::ui
