// The main window's previews before a skip and a resume-from: the rows they leave out (or apply again)
// checked against the downstream (ui/dialogs/window_preview_dialog.h), read with the engine's preview of the
// task (engine/preview, which the CLI and the HTTP API use too). Apart from main_window.cpp so that each file
// keeps one job.
#include <QDir>
#include <QFileInfo>

#include <spdlog/spdlog.h>

#include "engine/preview/replay_sql_file.h"
#include "engine/preview/task_window_preview.h"
#include "engine/task/task_setup_builder.h"
#include "ui/dialogs/window_preview_dialog.h"
#include "ui/engine/engine_adapter.h"
#include "ui/main/main_window.h"

namespace syncscope::ui {

namespace {

// The task's setup, read from its files on the GUI thread and copied into the worker's job.
struct PreviewSetup {
    task::TaskSetup setup;
    bool known = false;  // read from the task's files
    std::string problem;
};

PreviewSetup setupOf(const TaskFiles& files) {
    PreviewSetup result;
    try {
        task::TaskConfig taskConfig = task::loadTaskConfig(files.taskPath.toStdString());
        task::SourceConfig sourceConfig = task::loadSourceConfig(files.sourcePath.toStdString());
        std::vector<std::string> warnings;
        result.setup = task::makeTaskSetup(taskConfig, sourceConfig, warnings);
        result.known = true;
    } catch (const std::exception& e) {
        result.problem = std::string("the task's files could not be read: ") + e.what();
        spdlog::warn("preview: {}", result.problem);
    }
    return result;
}

}  // namespace

QString MainWindow::replaySqlPath(const std::string& taskName) const {
    const QString folder = files_.auditPath.isEmpty() ? QDir::tempPath() : QFileInfo(files_.auditPath).absolutePath();
    return QString::fromStdString(preview::replaySqlPath(folder.toStdString(), taskName));
}

WindowPreviewDialog* MainWindow::previewDialog(std::function<verify::WindowPreview(const std::atomic<bool>*)> job,
                                               WindowPreviewAction action) {
    auto* dialog = new WindowPreviewDialog(std::move(job), std::move(action), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("windowPreviewDialog"));
    return dialog;
}

void MainWindow::skipWithPreview() {
    auto snapshot = adapter_->lastSnapshot();
    // A replica channel or a remote engine has no task files here to preview with: the typed
    // confirmation, which showed the event, is the check (the replica or the engine audits the skip).
    if (!snapshot || !snapshot->failedEvent || !snapshot->failedEvent->position.known() || files_.taskPath.isEmpty()) {
        adapter_->skipFailedEvent();  // the task answers why there is nothing to skip
        return;
    }
    PreviewSetup task = setupOf(files_);
    const std::string taskName = task.known ? task.setup.taskName : snapshot->taskName;
    const task::PointView failed = snapshot->failedEvent->position;
    // The failed row's transaction, found in the binlog around the row, is the window.
    auto job = [task, failed](const std::atomic<bool>* cancel) {
        if (!task.known) {
            throw Error(task.problem);
        }
        return preview::previewSkip(task.setup, failed, cancel);
    };
    WindowPreviewAction action;
    action.title = tr("Skip the failed transaction?");
    action.intro =
        tr("The transaction holding the failed row is skipped: none of its rows is applied by the task. "
           "Each row is checked against the downstream below.");
    action.confirmText = tr("Skip it");
    action.sqlPath = replaySqlPath(taskName);
    action.auditPath = files_.auditPath;
    action.taskName = taskName;
    action.sourceId = task.known ? task.setup.sourceId : snapshot->sourceId;
    WindowPreviewDialog* dialog = previewDialog(std::move(job), std::move(action));
    // The skip's own audit entry names the saved SQL (no separate entry).
    connect(dialog, &QDialog::accepted, adapter_,
            [this, dialog] { adapter_->skipFailedEventWith(dialog->evidence()); });
    dialog->open();
}

void MainWindow::resumeFromWithPreview(const task::ResumeTarget& target, const QString& description) {
    auto snapshot = adapter_->lastSnapshot();
    const task::PointView global = snapshot ? snapshot->globalPersisted : task::PointView{};
    if ((target.file == global.file && target.pos == global.pos) || files_.taskPath.isEmpty()) {
        adapter_->resumeFrom(target);  // nothing is skipped or applied again, or no task files to preview with
        return;
    }
    const QString where = QStringLiteral("%1:%2").arg(QString::fromStdString(target.file)).arg(target.pos);
    PreviewSetup task = setupOf(files_);
    preview::ResumeWindow window;
    std::string problem = task.problem;
    try {
        window = preview::resumeWindowOf(global, target);
    } catch (const std::exception& e) {
        problem = e.what();
    }
    auto job = [task, window, problem](const std::atomic<bool>* cancel) {
        if (!problem.empty()) {
            throw Error(problem);
        }
        return preview::previewResumeFrom(task.setup, window, cancel);
    };
    const std::string taskName = task.known ? task.setup.taskName : (snapshot ? snapshot->taskName : std::string());
    WindowPreviewAction action;
    action.title = tr("Resume from %1?").arg(where);
    action.intro =
        (window.skips ? tr("Resume the task from %1, %2. The global checkpoint moves forward from %3 (written to the "
                           "audit log): the transactions below are <b>skipped</b>.")
                      : tr("Resume the task from %1, %2. The global checkpoint moves back from %3 (written to the "
                           "audit log): the transactions below are <b>applied again</b>, in safe mode."))
            .arg(where, description, QString::fromStdString(global.text()));
    action.confirmText = tr("Resume");
    action.skipsRows = window.skips;
    action.sqlPath = replaySqlPath(taskName);
    action.auditPath = files_.auditPath;
    action.auditAction = "resume-from-preview";
    action.taskName = taskName;
    action.sourceId = task.known ? task.setup.sourceId : std::string();
    WindowPreviewDialog* dialog = previewDialog(std::move(job), std::move(action));
    connect(dialog, &QDialog::accepted, adapter_, [this, target] { adapter_->resumeFrom(target); });
    dialog->open();
}

}  // namespace syncscope::ui
