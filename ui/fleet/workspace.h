// The workspace: the set of channels a DBA keeps open, saved in QSettings (restored at the next start)
// and as a JSON file (to move it to another desk or share it), in the same form.
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include "ui/fleet/channel_spec.h"

class QSettings;

namespace syncscope::ui {

QByteArray workspaceJson(const QList<ChannelSpec>& channels);
// The channels of a workspace file's text; entries that cannot be used are left out and named in
// `problems` (one line each), so that one bad entry never loses the others.
QList<ChannelSpec> channelsFromWorkspaceJson(const QByteArray& json, QStringList* problems);

void saveWorkspace(QSettings& settings, const QList<ChannelSpec>& channels);
QList<ChannelSpec> loadWorkspace(QSettings& settings, QStringList* problems);

bool saveWorkspaceFile(const QString& path, const QList<ChannelSpec>& channels, QString* error);
QList<ChannelSpec> loadWorkspaceFile(const QString& path, QStringList* problems);

}  // namespace syncscope::ui
