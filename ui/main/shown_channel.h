// The channel the task view shows: its task and the files it was opened from. The fleet controller sets it as
// channels are attached, opened and removed; the controllers that read the task's files (browse, previews,
// inspection, stop on close) read it.
#pragma once

#include <memory>

#include "engine/task/task_control.h"
#include "ui/main/task_files.h"

namespace syncscope::ui {

struct ShownChannel {
    std::shared_ptr<task::TaskControl> task;  // null while the overview shows no channel
    TaskFiles files;
};

}  // namespace syncscope::ui
