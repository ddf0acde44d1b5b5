// The files a task was opened from: its DM task file, its source file (or files) and the engine's audit log.
#pragma once

#include <QMetaType>
#include <QString>

namespace syncscope::ui {

struct TaskFiles {
    QString taskPath;
    QString sourcePath;
    QString auditPath;  // the engine's audit log (JSON Lines); empty when it has none
};

}  // namespace syncscope::ui

Q_DECLARE_METATYPE(syncscope::ui::TaskFiles)
