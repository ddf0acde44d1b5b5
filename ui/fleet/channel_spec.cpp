#include "ui/fleet/channel_spec.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

#include "engine/dmcluster/dm_api_client.h"

namespace syncscope::ui {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ChannelSpec", text);
}

const char* kindKey(ChannelKind kind) {
    switch (kind) {
        case ChannelKind::LocalTask:
            return "local-task";
        case ChannelKind::RemoteEngine:
            return "remote-engine";
        case ChannelKind::NativeReplica:
            return "mariadb-replica";
        case ChannelKind::DmCluster:
            return "dm-cluster";
    }
    return "local-task";
}

}  // namespace

QString kindName(ChannelKind kind) {
    switch (kind) {
        case ChannelKind::LocalTask:
            return tr("local task");
        case ChannelKind::RemoteEngine:
            return tr("remote engine");
        case ChannelKind::NativeReplica:
            return tr("MariaDB replica");
        case ChannelKind::DmCluster:
            return tr("DM cluster");
    }
    return {};
}

QString ChannelSpec::key() const {
    if (kind == ChannelKind::LocalTask) {
        return QStringLiteral("local:%1|%2").arg(taskPath, sourcePath);
    }
    if (kind == ChannelKind::DmCluster) {
        return QStringLiteral("dm-cluster:%1").arg(masterUrls.join(QLatin1Char(',')));
    }
    return QStringLiteral("%1:%2:%3").arg(QString::fromLatin1(kindKey(kind)), host).arg(port);
}

QString ChannelSpec::title() const {
    if (kind == ChannelKind::LocalTask) {
        return QFileInfo(taskPath).fileName();
    }
    if (kind == ChannelKind::DmCluster) {
        QString first = masterUrls.value(0);
        first.remove(QStringLiteral("http://")).remove(QStringLiteral("https://"));
        return masterUrls.size() > 1 ? tr("DM %1 (+%2)").arg(first).arg(masterUrls.size() - 1) : tr("DM %1").arg(first);
    }
    const QString address = QStringLiteral("%1:%2").arg(host).arg(port);
    return kind == ChannelKind::NativeReplica ? tr("replica %1").arg(address) : address;
}

QJsonObject ChannelSpec::toJson() const {
    QJsonObject json{{QStringLiteral("kind"), QString::fromLatin1(kindKey(kind))},
                     {QStringLiteral("notify"), notify},
                     {QStringLiteral("lag_threshold_seconds"), lagThresholdSeconds}};
    auto put = [&json](const char* key, const QString& value) {
        if (!value.isEmpty()) {
            json.insert(QLatin1String(key), value);
        }
    };
    put("task", taskPath);
    put("source", sourcePath);
    put("host", host);
    if (port != 0) {
        json.insert(QStringLiteral("port"), port);
    }
    if (tls) {
        json.insert(QStringLiteral("tls"), true);
    }
    put("ca_file", caFile);
    put("token_file", tokenFile);
    if (!masterUrls.isEmpty()) {
        json.insert(QStringLiteral("masters"), QJsonArray::fromStringList(masterUrls));
    }
    put("cert_file", certFile);
    put("downstream", downstreamAddress);
    put("key_file", keyFile);
    put("user", user);
    put("password_file", passwordFile);
    put("audit_log", auditPath);
    return json;
}

std::optional<ChannelSpec> ChannelSpec::fromJson(const QJsonObject& json, QString* error) {
    ChannelSpec spec;
    const QString kind = json.value(QStringLiteral("kind")).toString();
    bool known = false;
    for (ChannelKind candidate :
         {ChannelKind::LocalTask, ChannelKind::RemoteEngine, ChannelKind::NativeReplica, ChannelKind::DmCluster}) {
        if (kind == QLatin1String(kindKey(candidate))) {
            spec.kind = candidate;
            known = true;
        }
    }
    if (!known) {
        *error = tr("unknown channel kind '%1' (expected local-task, remote-engine, mariadb-replica or dm-cluster)")
                     .arg(kind);
        return std::nullopt;
    }
    spec.taskPath = json.value(QStringLiteral("task")).toString();
    spec.sourcePath = json.value(QStringLiteral("source")).toString();
    spec.host = json.value(QStringLiteral("host")).toString();
    spec.port = json.value(QStringLiteral("port")).toInt();
    spec.tls = json.value(QStringLiteral("tls")).toBool();
    spec.caFile = json.value(QStringLiteral("ca_file")).toString();
    spec.tokenFile = json.value(QStringLiteral("token_file")).toString();
    for (const auto& url : json.value(QStringLiteral("masters")).toArray()) {
        spec.masterUrls << url.toString();
    }
    spec.certFile = json.value(QStringLiteral("cert_file")).toString();
    spec.keyFile = json.value(QStringLiteral("key_file")).toString();
    spec.downstreamAddress = json.value(QStringLiteral("downstream")).toString();
    spec.user = json.value(QStringLiteral("user")).toString();
    spec.passwordFile = json.value(QStringLiteral("password_file")).toString();
    spec.auditPath = json.value(QStringLiteral("audit_log")).toString();
    spec.notify = json.value(QStringLiteral("notify")).toBool(true);
    spec.lagThresholdSeconds =
        json.value(QStringLiteral("lag_threshold_seconds")).toDouble(ChannelSpec::kDefaultLagThresholdSeconds);
    if (spec.kind == ChannelKind::LocalTask && (spec.taskPath.isEmpty() || spec.sourcePath.isEmpty())) {
        *error = tr("a local task needs both its task file and its source file");
        return std::nullopt;
    }
    if (spec.kind == ChannelKind::DmCluster && spec.masterUrls.isEmpty()) {
        *error = tr("a DM cluster needs the address of at least one dm-master");
        return std::nullopt;
    }
    if (spec.kind != ChannelKind::LocalTask && spec.kind != ChannelKind::DmCluster &&
        (spec.host.isEmpty() || spec.port <= 0)) {
        *error = tr("%1 needs a host and a port").arg(kindName(spec.kind));
        return std::nullopt;
    }
    return spec;
}

QString ChannelSpec::resolvedPassword(QString* error) const {
    if (!password.isEmpty() || passwordFile.isEmpty()) {
        return password;
    }
    QFile file(passwordFile);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = tr("cannot read the password file %1: %2").arg(passwordFile, file.errorString());
        return {};
    }
    return QString::fromUtf8(file.readLine()).trimmed();
}

namespace {

QString unreadable(const QString& what, const QString& path) {
    QFileInfo info(path);
    if (!info.exists()) {
        return tr("the %1 %2 does not exist").arg(what, path);
    }
    if (!info.isFile() || !info.isReadable()) {
        return tr("the %1 %2 cannot be read").arg(what, path);
    }
    return {};
}

}  // namespace

dmcluster::DmClusterOptions ChannelSpec::dmClusterOptions() const {
    dmcluster::DmClusterOptions options;
    for (const QString& url : masterUrls) {
        options.masterUrls.push_back(url.trimmed().toStdString());
    }
    options.caFile = caFile.toStdString();
    options.certFile = certFile.toStdString();
    options.keyFile = keyFile.toStdString();
    options.auditLogPath = auditPath.toStdString();
    return options;
}

namespace {

constexpr int kMaxPort = 65535;

// "HOST:PORT" into the settings; false when it is not one.
bool readAddress(const QString& address, ServerSettings& server) {
    const int colon = address.lastIndexOf(QLatin1Char(':'));
    bool ok = false;
    const int port = colon > 0 ? address.mid(colon + 1).toInt(&ok) : 0;
    if (!ok || port <= 0 || port > kMaxPort) {
        return false;
    }
    server.host = address.left(colon).toStdString();
    server.port = port;
    return true;
}

}  // namespace

std::optional<dmcluster::DownstreamAccess> ChannelSpec::dmDownstreamAccess(QString* error) const {
    if (user.trimmed().isEmpty()) {
        return std::nullopt;
    }
    dmcluster::DownstreamAccess access;
    access.server.user = user.trimmed().toStdString();
    access.server.password = resolvedPassword(error).toStdString();
    if (!downstreamAddress.trimmed().isEmpty()) {
        access.overrideAddress = readAddress(downstreamAddress.trimmed(), access.server);
    }
    return access;
}

QString ChannelSpec::dmClusterProblem() const {
    try {
        dmcluster::masterEndpoints(dmClusterOptions());
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    const std::pair<QString, QString> files[] = {
        {tr("CA file"), caFile}, {tr("client certificate"), certFile}, {tr("client key"), keyFile}};
    for (const auto& [what, path] : files) {
        if (!path.isEmpty()) {
            if (QString problem = unreadable(what, path); !problem.isEmpty()) {
                return problem;
            }
        }
    }
    if (certFile.isEmpty() != keyFile.isEmpty()) {
        return tr("a client certificate needs its key and the other way round");
    }
    if (!downstreamAddress.trimmed().isEmpty()) {
        ServerSettings server;
        if (!readAddress(downstreamAddress.trimmed(), server)) {
            return tr("the downstream address '%1' is not HOST:PORT").arg(downstreamAddress);
        }
        if (user.trimmed().isEmpty()) {
            return tr("a downstream address needs the user that reads the checkpoint tables");
        }
    }
    if (!user.isEmpty() && password.isEmpty() && !passwordFile.isEmpty()) {
        return unreadable(tr("password file"), passwordFile);
    }
    return {};
}

QString ChannelSpec::inputProblem() const {
    if (kind == ChannelKind::LocalTask) {
        if (taskPath.isEmpty() || sourcePath.isEmpty()) {
            return tr("a local task needs its task file and its source file");
        }
        return {};
    }
    if (kind == ChannelKind::DmCluster) {
        return dmClusterProblem();
    }
    if (host.trimmed().isEmpty()) {
        return tr("the host is empty");
    }
    if (port <= 0) {
        return tr("the port is not set");
    }
    if (kind == ChannelKind::RemoteEngine) {
        if (tls && !caFile.isEmpty()) {
            if (QString problem = unreadable(tr("CA file"), caFile); !problem.isEmpty()) {
                return problem;
            }
        }
        if (!tokenFile.isEmpty()) {
            return unreadable(tr("token file"), tokenFile);
        }
        return {};
    }
    if (user.trimmed().isEmpty()) {
        return tr("the user is empty");
    }
    if (password.isEmpty() && !passwordFile.isEmpty()) {
        return unreadable(tr("password file"), passwordFile);
    }
    return {};
}

}  // namespace syncscope::ui
