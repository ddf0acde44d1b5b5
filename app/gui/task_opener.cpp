#include "app/gui/task_opener.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <spdlog/spdlog.h>

#include "engine/task/task.h"
#include "engine/task/task_setup_builder.h"
#include "ui/dialogs/precheck_dialog.h"

namespace syncscope::gui {

OpenedTask openTask(const ui::TaskFiles& files) {
    OpenedTask opened;
    for (const QString& path : {files.taskPath, files.sourcePath}) {
        if (!QFileInfo(path).isReadable()) {
            opened.error = QCoreApplication::translate("TaskOpener", "Cannot read %1").arg(path);
            return opened;
        }
    }
    try {
        task::TaskConfig taskConfig = task::loadTaskConfig(files.taskPath.toStdString());
        task::SourceConfig sourceConfig = task::loadSourceConfig(files.sourcePath.toStdString());
        std::vector<std::string> warnings;
        task::TaskSetup setup = task::makeTaskSetup(taskConfig, sourceConfig, warnings);
        for (const std::string& warning : warnings) {
            spdlog::warn("{}", warning);
        }
        // The audit log lives beside the application's logs, one file per task.
        opened.auditPath = ui::PrecheckDialog::defaultAuditPath(QString::fromStdString(setup.taskName));
        setup.auditLogPath = opened.auditPath.toStdString();
        opened.setup = setup;
        opened.task = std::make_shared<task::Task>(std::move(setup));
    } catch (const std::exception& e) {
        opened.error = QString::fromUtf8(e.what());
    }
    return opened;
}

}  // namespace syncscope::gui
