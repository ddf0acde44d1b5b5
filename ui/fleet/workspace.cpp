#include "ui/fleet/workspace.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QSettings>

namespace syncscope::ui {

namespace {

const char* const kSettingsKey = "workspace/channels";
const char* const kFormatKey = "syncscope_workspace";
constexpr int kFormatVersion = 1;

QString tr(const char* text) {
    return QCoreApplication::translate("Workspace", text);
}

}  // namespace

QByteArray workspaceJson(const QList<ChannelSpec>& channels) {
    QJsonArray entries;
    for (const ChannelSpec& channel : channels) {
        entries.append(channel.toJson());
    }
    QJsonObject root{{QLatin1String(kFormatKey), kFormatVersion}, {QStringLiteral("channels"), entries}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

QList<ChannelSpec> channelsFromWorkspaceJson(const QByteArray& json, QStringList* problems) {
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    QList<ChannelSpec> channels;
    if (document.isNull() || !document.isObject()) {
        problems->append(tr("not a workspace: %1").arg(parseError.errorString()));
        return channels;
    }
    const QJsonArray entries = document.object().value(QStringLiteral("channels")).toArray();
    for (int i = 0; i < entries.size(); ++i) {
        QString error;
        if (auto spec = ChannelSpec::fromJson(entries.at(i).toObject(), &error)) {
            channels.append(*spec);
        } else {
            problems->append(tr("channel %1: %2").arg(i + 1).arg(error));
        }
    }
    return channels;
}

void saveWorkspace(QSettings& settings, const QList<ChannelSpec>& channels) {
    settings.setValue(QLatin1String(kSettingsKey), QString::fromUtf8(workspaceJson(channels)));
}

QList<ChannelSpec> loadWorkspace(QSettings& settings, QStringList* problems) {
    const QString saved = settings.value(QLatin1String(kSettingsKey)).toString();
    if (saved.isEmpty()) {
        return {};
    }
    return channelsFromWorkspaceJson(saved.toUtf8(), problems);
}

bool saveWorkspaceFile(const QString& path, const QList<ChannelSpec>& channels, QString* error) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(workspaceJson(channels)) < 0 || !file.commit()) {
        *error = tr("cannot write the workspace %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

QList<ChannelSpec> loadWorkspaceFile(const QString& path, QStringList* problems) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        problems->append(tr("cannot read the workspace %1: %2").arg(path, file.errorString()));
        return {};
    }
    return channelsFromWorkspaceJson(file.readAll(), problems);
}

}  // namespace syncscope::ui
