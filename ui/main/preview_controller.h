// The previews before a skip and a resume-from: the rows they leave out (or apply again) checked against the
// downstream (ui/dialogs/window_preview_dialog.h), read with the engine's preview of the task (engine/preview,
// which the CLI and the HTTP API use too), and sent to the task only once the DBA confirms. A resume-from in a
// stage the task does not take it in is refused before any binlog is read.
#pragma once

#include <QObject>
#include <QString>
#include <atomic>
#include <functional>
#include <string>

#include "engine/task/task_control.h"
#include "engine/verify/window_preview.h"
#include "ui/main/shown_channel.h"

class QWidget;

namespace syncscope::ui {

class EngineAdapter;
class TaskView;
class WindowPreviewDialog;
struct WindowPreviewAction;

class PreviewController : public QObject {
    Q_OBJECT

public:
    PreviewController(QWidget* window, TaskView* taskView, EngineAdapter* adapter, const ShownChannel* shown);

    // Task > Resume from: the point chosen in the dialog, then its preview.
    void showResumeFrom();
    // Task > Skip: the failed event panel's typed confirmation, which then asks for skipWithPreview().
    void askToSkip();
    void skipWithPreview();
    void resumeFromWithPreview(const task::ResumeTarget& target, const QString& description);

signals:
    // A resume-from asked for in a stage the task does not take it in: refused before any preview.
    void resumeFromRefused(const QString& reason);

private:
    // Where the rows a confirmed preview leaves out are saved as SQL: beside the audit log, else the temp folder.
    QString replaySqlPath(const std::string& taskName) const;
    WindowPreviewDialog* previewDialog(std::function<verify::WindowPreview(const std::atomic<bool>*)> job,
                                       WindowPreviewAction action);

    QWidget* window_;
    TaskView* taskView_;
    EngineAdapter* adapter_;
    const ShownChannel* shown_;
};

}  // namespace syncscope::ui
