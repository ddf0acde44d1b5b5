#include "app/gui/task_opener.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace syncscope::gui {

OpenedTask openTask(const ui::TaskFiles& files) {
    OpenedTask opened;
    for (const QString& path : {files.taskPath, files.sourcePath}) {
        if (!QFileInfo(path).isReadable()) {
            opened.error = QCoreApplication::translate("TaskOpener", "Cannot read %1").arg(path);
            return opened;
        }
    }
    // The engine's Task (engine/task/task.h) is attached here once it is wired to the GUI; until then the
    // window opens without a task and says so.
    opened.error = QCoreApplication::translate("TaskOpener",
                                               "Opening %1 needs the engine's Task, which is not wired to the GUI "
                                               "yet.")
                       .arg(files.taskPath);
    return opened;
}

}  // namespace syncscope::gui
