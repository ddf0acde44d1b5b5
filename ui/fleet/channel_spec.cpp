#include "ui/fleet/channel_spec.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

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
    }
    return {};
}

QString ChannelSpec::key() const {
    if (kind == ChannelKind::LocalTask) {
        return QStringLiteral("local:%1|%2").arg(taskPath, sourcePath);
    }
    return QStringLiteral("%1:%2:%3").arg(QString::fromLatin1(kindKey(kind)), host).arg(port);
}

QString ChannelSpec::title() const {
    if (kind == ChannelKind::LocalTask) {
        return QFileInfo(taskPath).fileName();
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
    put("user", user);
    put("password_file", passwordFile);
    put("audit_log", auditPath);
    return json;
}

std::optional<ChannelSpec> ChannelSpec::fromJson(const QJsonObject& json, QString* error) {
    ChannelSpec spec;
    const QString kind = json.value(QStringLiteral("kind")).toString();
    bool known = false;
    for (ChannelKind candidate : {ChannelKind::LocalTask, ChannelKind::RemoteEngine, ChannelKind::NativeReplica}) {
        if (kind == QLatin1String(kindKey(candidate))) {
            spec.kind = candidate;
            known = true;
        }
    }
    if (!known) {
        *error = tr("unknown channel kind '%1' (expected local-task, remote-engine or mariadb-replica)").arg(kind);
        return std::nullopt;
    }
    spec.taskPath = json.value(QStringLiteral("task")).toString();
    spec.sourcePath = json.value(QStringLiteral("source")).toString();
    spec.host = json.value(QStringLiteral("host")).toString();
    spec.port = json.value(QStringLiteral("port")).toInt();
    spec.tls = json.value(QStringLiteral("tls")).toBool();
    spec.caFile = json.value(QStringLiteral("ca_file")).toString();
    spec.tokenFile = json.value(QStringLiteral("token_file")).toString();
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
    if (spec.kind != ChannelKind::LocalTask && (spec.host.isEmpty() || spec.port <= 0)) {
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

QString ChannelSpec::inputProblem() const {
    if (kind == ChannelKind::LocalTask) {
        if (taskPath.isEmpty() || sourcePath.isEmpty()) {
            return tr("a local task needs its task file and its source file");
        }
        return {};
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
