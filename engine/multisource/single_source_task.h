// A task with one source keeps the DBA's pause across restarts as a task with several sources does: its engine Task
// is commanded through a SourceSubtask whose pause is kept in `<meta-schema>`.`<task>_syncscope_paused_sources` on
// the downstream and copied beside the audit log (paused_sources.h), so a restart of `syncscope-cli run`, the GUI
// opening the task, or another machine leaves a paused task paused until it is resumed.
// Unlike a task with several sources, a downstream that cannot be read at start does not stop the start: a task
// with one source has always started then. When it may answer later (down, restarting), the Task starts once the
// pauses kept there are read (pause_table_wait.h), so a pause kept there wins over a stale copy; when a retry would
// not help (a wrong password), the copy beside the audit log is used alone and the Task fails on its own error.
#pragma once

#include <memory>
#include <string>

#include "engine/multisource/source_subtask.h"
#include "engine/task/task.h"
#include "engine/task/task_setup.h"

namespace syncscope::multisource {

struct SingleSourceTask {
    std::shared_ptr<task::Task> engine;       // waitingForDba, waitUntilStopped, stage
    std::shared_ptr<SourceSubtask> commands;  // start, pause, resume, status: the pause remembered
    std::string warning;  // why the downstream's pauses were not read at open, and what follows; "" when they were
};

// The pause file is the one beside setup.auditLogPath (none when that is empty). Throws MultiSourceError when the
// file exists but cannot be read (nothing is started on a guess).
SingleSourceTask openSingleSourceTask(task::TaskSetup setup);

}  // namespace syncscope::multisource
