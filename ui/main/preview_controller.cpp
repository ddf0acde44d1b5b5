#include "ui/main/preview_controller.h"

#include <QDir>
#include <QFileInfo>

#include "engine/binlog/location.h"
#include "engine/common/error.h"
#include "engine/preview/replay_sql_file.h"
#include "engine/preview/task_window_preview.h"
#include "ui/dialogs/resume_from_dialog.h"
#include "ui/dialogs/window_preview_dialog.h"
#include "ui/engine/engine_adapter.h"
#include "ui/main/source_picker.h"
#include "ui/main/task_files_setup.h"
#include "ui/main/task_view.h"
#include "ui/pages/failed_event_panel.h"

namespace syncscope::ui {

PreviewController::PreviewController(QWidget* window, TaskView* taskView, EngineAdapter* adapter,
                                     const ShownChannel* shown)
    : QObject(window), window_(window), taskView_(taskView), adapter_(adapter), shown_(shown) {}

void PreviewController::showResumeFrom() {
    ResumeFromDialog dialog(adapter_->lastSnapshot(), window_);
    if (dialog.exec() == QDialog::Accepted) {
        resumeFromWithPreview(dialog.preview().target, tr("as chosen in Resume from"));
    }
}

void PreviewController::askToSkip() {
    taskView_->failedEventPanel()->askToSkip();
}

QString PreviewController::replaySqlPath(const std::string& taskName) const {
    const QString& auditPath = shown_->files.auditPath;
    const QString folder = auditPath.isEmpty() ? QDir::tempPath() : QFileInfo(auditPath).absolutePath();
    return QString::fromStdString(preview::replaySqlPath(folder.toStdString(), taskName));
}

WindowPreviewDialog* PreviewController::previewDialog(
    std::function<verify::WindowPreview(const std::atomic<bool>*)> job, WindowPreviewAction action) {
    auto* dialog = new WindowPreviewDialog(std::move(job), std::move(action), window_);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("windowPreviewDialog"));
    return dialog;
}

void PreviewController::skipWithPreview() {
    auto snapshot = adapter_->lastSnapshot();
    const TaskFiles& files = shown_->files;
    // A replica channel or a remote engine has no task files here to preview with: the typed
    // confirmation, which showed the event, is the check (the replica or the engine audits the skip).
    if (!snapshot || !snapshot->failedEvent || !snapshot->failedEvent->position.known() || files.taskPath.isEmpty()) {
        adapter_->skipFailedEvent();  // the task answers why there is nothing to skip
        return;
    }
    // The failed row belongs to the source that failed, whichever the picker shows.
    const QString failedFile = taskView_->sourcePicker()->failedFile();
    TaskFilesSetup task =
        readTaskFilesSetup(files.taskPath, failedFile.isEmpty() ? taskView_->sourcePicker()->chosenFile() : failedFile);
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
    WindowPreviewDialog* dialog = previewDialog(std::move(job), std::move(action));
    // The skip's own audit entry names the saved SQL (no separate entry).
    connect(dialog, &QDialog::accepted, adapter_,
            [adapter = adapter_, dialog] { adapter->skipFailedEventWith(dialog->evidence()); });
    dialog->open();
}

void PreviewController::resumeFromWithPreview(const task::ResumeTarget& target, const QString& description) {
    auto snapshot = adapter_->lastSnapshot();
    const QString point = target.file.empty()
                              ? QString::fromStdString(target.gtid)
                              : QStringLiteral("%1:%2").arg(QString::fromStdString(target.file)).arg(target.pos);
    const QString where = target.file.empty() ? QStringLiteral("GTID %1").arg(point) : point;
    // The task takes a resume-from only when paused or stopped: say so before reading any binlog.
    if (snapshot && snapshot->stage != task::Stage::Paused && snapshot->stage != task::Stage::Stopped) {
        emit resumeFromRefused(tr("Resume from %1 refused, nothing changed: the task is %2; pause or stop it first")
                                   .arg(where, QString::fromLatin1(task::stageName(snapshot->stage))));
        return;
    }
    const task::PointView global = snapshot ? snapshot->globalPersisted : task::PointView{};
    if ((target.file == global.file && target.pos == global.pos) || shown_->files.taskPath.isEmpty()) {
        adapter_->resumeFrom(target);  // nothing is skipped or applied again, or no task files to preview with
        return;
    }
    TaskFilesSetup task = readTaskFilesSetup(shown_->files.taskPath, taskView_->sourcePicker()->chosenFile());
    bool skips = true;  // a GTID going nowhere comparable: save the rows rather than risk losing them
    std::string problem = task.problem;
    try {
        if (!target.file.empty()) {
            skips = preview::resumeWindowOf(global, target).skips;
        } else if (!global.gtid.empty()) {
            skips = binlog::Location::fromParts("", 0, target.gtid)
                        .compare(binlog::Location::fromParts("", 0, global.gtid)) != binlog::PositionOrder::Before;
        }
    } catch (const std::exception& e) {
        problem = e.what();
    }
    // A GTID alone is placed in the upstream's binlog on the worker thread (a binlog read).
    auto job = [task, global, target, problem](const std::atomic<bool>* cancel) {
        if (!problem.empty()) {
            throw Error(problem);
        }
        preview::checkResumeTarget(task.setup, target, cancel);  // a point inside a transaction goes nowhere
        preview::ResumeWindow window =
            preview::resumeWindowOf(global, preview::locateResumeTarget(task.setup, target, cancel));
        return preview::previewResumeFrom(task.setup, window, cancel);
    };
    const std::string taskName = task.known ? task.setup.taskName : (snapshot ? snapshot->taskName : std::string());
    WindowPreviewAction action;
    action.title = tr("Resume from %1?").arg(where);
    action.intro =
        (skips ? tr("Resume the task from %1, %2. The global checkpoint moves forward from %3 (written to the "
                    "audit log): the transactions below are <b>skipped</b>.")
               : tr("Resume the task from %1, %2. The global checkpoint moves back from %3 (written to the "
                    "audit log): the transactions below are <b>applied again</b>, in safe mode."))
            .arg(where, description, QString::fromStdString(global.text()));
    action.confirmText = tr("Resume");
    action.typedConfirmation = point;  // the checkpoint moves: the DBA types where to
    action.skipsRows = skips;
    action.sqlPath = replaySqlPath(taskName);
    WindowPreviewDialog* dialog = previewDialog(std::move(job), std::move(action));
    // The resume-from's own audit entry names the saved SQL (no separate entry), as a skip's does.
    connect(dialog, &QDialog::accepted, adapter_,
            [adapter = adapter_, dialog, target] { adapter->resumeFromWith(target, dialog->evidence()); });
    dialog->open();
}

}  // namespace syncscope::ui
