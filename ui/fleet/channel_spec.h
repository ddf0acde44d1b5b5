// What the DBA added to the workspace, one entry per local task, remote engine, replica server or DM
// cluster: enough to open it again on the next start. Never holds a password that was typed in (only a
// password file).
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

#include "engine/dmcluster/dm_api_client.h"
#include "engine/dmcluster/dm_checkpoint_watch.h"

namespace syncscope::ui {

enum class ChannelKind { LocalTask, RemoteEngine, NativeReplica, DmCluster };

QString kindName(ChannelKind kind);  // "local task", "remote engine", "MariaDB replica", "DM cluster"

struct ChannelSpec {
    static constexpr double kDefaultLagThresholdSeconds = 60;

    ChannelKind kind = ChannelKind::LocalTask;
    QString taskPath;  // local task
    QString sourcePath;
    QString host;  // remote engine, replica
    int port = 0;
    bool tls = false;  // remote engine
    QString caFile;    // remote engine, DM cluster
    QString tokenFile;
    QStringList masterUrls;  // DM cluster: its dm-master addresses, tried in turn
    QString certFile;        // DM cluster: client certificate and key, when its TLS asks for one
    QString keyFile;
    QString user;  // replica (and, to decode failed events, its masters); DM cluster: its tasks' downstream
    QString downstreamAddress;  // DM cluster: HOST:PORT of the downstream; empty: each task's target_config
    QString passwordFile;       // first line is the password
    QString password;           // typed in this session; never saved
    QString auditPath;          // where replica and DM cluster commands are audited
    // Notifications for this channel.
    bool notify = true;
    double lagThresholdSeconds = kDefaultLagThresholdSeconds;

    // Identity in the workspace: the same task files or the same address are one entry.
    QString key() const;
    QString title() const;  // "orders.yaml", "10.0.0.5:8261", "replica 10.0.0.7:3306", "DM 10.0.0.1:8261"
    QJsonObject toJson() const;
    // nullopt with the reason in `error` for an entry that names no kind, files or address.
    static std::optional<ChannelSpec> fromJson(const QJsonObject& json, QString* error);
    // Why the entry cannot be opened as typed (no host, a CA, token or password file that cannot be read);
    // empty when it can. The add dialogs keep OK disabled while there is one, so nothing is added.
    QString inputProblem() const;
    // A DM cluster's options as the engine takes them (the masters, TLS files, the audit log).
    dmcluster::DmClusterOptions dmClusterOptions() const;
    // Where and as whom a DM cluster's checkpoint tables are read; nullopt without a user. A password file
    // that cannot be read is named in `error`.
    std::optional<dmcluster::DownstreamAccess> dmDownstreamAccess(QString* error) const;
    // The password to use: the typed one, else the password file's first line; empty when neither.
    QString resolvedPassword(QString* error) const;

private:
    QString dmClusterProblem() const;
};

}  // namespace syncscope::ui
