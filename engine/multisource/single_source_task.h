// A task with one source keeps the DBA's pause across restarts as a task with several sources does: its engine Task
// is commanded through a SourceSubtask whose pause is kept in `<meta-schema>`.`<task>_syncscope_paused_sources` on
// the downstream and copied beside the audit log (paused_sources.h), so a restart of `syncscope-cli run`, the GUI
// opening the task, or another machine leaves a paused task paused until it is resumed.
// Unlike a task with several sources, a downstream that cannot be read at start does not stop the start: a task
// with one source has always started then and retried the downstream with backoff. The copy beside the audit log is
// then used alone (a pause kept only in the downstream is not seen by that start), and the warning says so.
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
    std::string warning;                      // why the downstream's pauses were not read; "" when they were
};

// The pause file is the one beside setup.auditLogPath (none when that is empty). Throws MultiSourceError when the
// file exists but cannot be read (nothing is started on a guess).
SingleSourceTask openSingleSourceTask(task::TaskSetup setup);

}  // namespace syncscope::multisource
