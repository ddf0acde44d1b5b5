// A task's setup (servers, routes, block-allow list) read from its task and source files, for the work the
// GUI does beside the running task: the previews before a skip or a resume-from and the event browser's row
// check. Read where it is needed (a worker thread may call it), so that it reflects the files as they are.
#pragma once

#include <QString>
#include <string>

#include "engine/task/task_setup.h"

namespace syncscope::ui {

struct TaskFilesSetup {
    task::TaskSetup setup;
    bool known = false;  // read from the task's files
    std::string problem;
};

TaskFilesSetup readTaskFilesSetup(const QString& taskPath, const QString& sourcePath);

}  // namespace syncscope::ui
