#include "app/gui/task_opener.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QMessageBox>

#include <QStatusBar>
#include <cstdio>

#include <spdlog/spdlog.h>

#include "engine/multisource/multi_source_plan.h"
#include "engine/multisource/multi_source_task.h"
#include "engine/multisource/paused_sources.h"
#include "engine/multisource/shard_merge_check.h"
#include "engine/multisource/single_source_task.h"
#include "engine/task/task.h"
#include "engine/task/task_setup_builder.h"
#include "ui/dialogs/precheck_dialog.h"
#include "ui/engine/engine_adapter.h"
#include "ui/fleet/multi_source_group.h"
#include "ui/main/fleet_controller.h"

namespace syncscope::gui {

namespace {

// A task file with several source files: one subtask per source (engine/multisource). The sources' upstreams are
// read first, so that a task whose sources would write one downstream table is refused before anything starts.
OpenedTask openMultiSourceTask(const QString& taskPath, const QStringList& sourcePaths) {
    OpenedTask opened;
    try {
        std::vector<std::string> sources;
        for (const QString& path : sourcePaths) {
            sources.push_back(path.toStdString());
        }
        multisource::MultiSourcePlan plan = multisource::loadMultiSourcePlan(taskPath.toStdString(), sources);
        for (const std::string& warning : plan.warnings) {
            spdlog::warn("{}", warning);
        }
        opened.auditPath = ui::PrecheckDialog::defaultAuditPath(QString::fromStdString(plan.task.name));
        for (task::TaskSetup& setup : plan.subtasks) {
            setup.auditLogPath = opened.auditPath.toStdString();  // one audit log; each entry names its source
        }
        multisource::planShardMerge(plan.subtasks, plan.task.caseSensitive, plan.task.shardMode,
                                    plan.task.strictOptimisticShardMode);
        opened.setup = plan.subtasks.front();  // the precheck reads the first source and the target
        // A source the DBA paused stays paused when the task is opened again, also when `syncscope-cli run` paused
        // it (kept in the downstream beside the checkpoint, a copy beside the audit log).
        opened.task = std::make_shared<multisource::MultiSourceTask>(
            std::move(plan.subtasks),
            multisource::PauseMemory{
                multisource::pausedSourcesFileBeside(opened.auditPath.toStdString(), plan.task.name), true});
    } catch (const std::exception& e) {
        opened.error = QString::fromUtf8(e.what());
    }
    return opened;
}

}  // namespace

OpenedTask openTask(const ui::TaskFiles& files) {
    const QStringList sourcePaths = ui::sourceFileList(files.sourcePath);
    if (sourcePaths.size() > 1) {
        return openMultiSourceTask(files.taskPath, sourcePaths);
    }
    OpenedTask opened;
    for (const QString& path : {files.taskPath, files.sourcePath}) {
        if (!QFileInfo(path).isReadable()) {
            opened.error = QCoreApplication::translate("TaskOpener", "Cannot read %1").arg(path);
            return opened;
        }
    }
    try {
        config::TaskConfig taskConfig = config::loadTaskConfig(files.taskPath.toStdString());
        config::SourceConfig sourceConfig = config::loadSourceConfig(files.sourcePath.toStdString());
        std::vector<std::string> warnings;
        task::TaskSetup setup = task::makeTaskSetup(taskConfig, sourceConfig, warnings);
        for (const std::string& warning : warnings) {
            spdlog::warn("{}", warning);
        }
        // The audit log lives beside the application's logs, one file per task.
        opened.auditPath = ui::PrecheckDialog::defaultAuditPath(QString::fromStdString(setup.taskName));
        setup.auditLogPath = opened.auditPath.toStdString();
        if (!taskConfig.shardMode.empty()) {
            std::vector<task::TaskSetup> one{std::move(setup)};
            multisource::planShardMerge(one, taskConfig.caseSensitive, taskConfig.shardMode,
                                        taskConfig.strictOptimisticShardMode);
            setup = std::move(one.front());
        }
        opened.setup = setup;
        // A pause is kept across restarts as for several sources (also one that `syncscope-cli run` was given).
        multisource::SingleSourceTask single = multisource::openSingleSourceTask(std::move(setup));
        if (!single.warning.empty()) {
            spdlog::warn("{}", single.warning);
        }
        opened.task = std::move(single.commands);
    } catch (const std::exception& e) {
        opened.error = QString::fromUtf8(e.what());
    }
    return opened;
}

bool openInto(ui::MainWindow& window, const ui::TaskFiles& files, bool start, bool quiet) {
    OpenedTask opened = openTask(files);
    if (!opened.task) {
        window.statusBar()->showMessage(opened.error);
        // Also where a script or a terminal sees it (offscreen, nobody reads the status bar).
        std::fprintf(stderr, "syncscope: cannot open the task %s: %s\n", qPrintable(files.taskPath),
                     qPrintable(opened.error));
        if (!quiet) {
            QMessageBox::warning(&window, QCoreApplication::translate("TaskOpener", "Cannot open the task"),
                                 opened.error);
        }
        return false;
    }
    window.attachTask(opened.task, {files.taskPath, files.sourcePath, opened.auditPath});
    if (!quiet) {
        // The precheck runs in the background and shows itself only when it finds something to fix.
        ui::PrecheckDialog::checkOpenedTask(opened.setup, opened.auditPath, &window);
    }
    if (start) {
        window.adapter()->start();
    }
    return true;
}

void connectTaskOpening(ui::MainWindow& window) {
    QObject::connect(&window, &ui::MainWindow::openTaskRequested, &window,
                     [&window](const ui::TaskFiles& files) { (void)openInto(window, files, false, false); });
    window.fleetController()->setLocalTaskOpener([](const ui::ChannelSpec& spec, QString* error) {
        OpenedTask opened = openTask({spec.taskPath, spec.sourcePath, {}});
        *error = opened.error;
        return opened.task;
    });
}

}  // namespace syncscope::gui
