// Builds a running task from a DM task file and its source file for the GUI. The window only needs a
// TaskControl; this is the one place that knows how the engine's Task is made.
#pragma once

#include <QString>
#include <memory>

#include "engine/task/task_control.h"
#include "engine/task/task_setup.h"
#include "ui/main/main_window.h"

namespace syncscope::gui {

struct OpenedTask {
    std::shared_ptr<task::TaskControl> task;  // null when the files could not be opened
    task::TaskSetup setup;                    // what the task was built from (for the precheck)
    QString auditPath;
    QString error;  // what failed and where (file, key), for a message box
};

OpenedTask openTask(const ui::TaskFiles& files);

// Opens the task into the window (File > Open task, New task, a recent task, the command line): attached and
// shown, the precheck in the background unless `quiet`, started when asked; what failed is shown otherwise
// (a message box unless `quiet`, and the status bar).
// False when the task cannot be opened (said on stderr, in the status bar and, unless quiet, a dialog).
bool openInto(ui::MainWindow& window, const ui::TaskFiles& files, bool start, bool quiet);

// Answers the window's openTaskRequested (File > Open task, New task, recent tasks) and its local-task opener
// (workspace entries) with openTask.
void connectTaskOpening(ui::MainWindow& window);

}  // namespace syncscope::gui
