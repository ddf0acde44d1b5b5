// The DBA's resume-from: moves the persisted global point to a chosen file:pos or GTID set. Table
// points are removed (they would make the resume skip that table's events), and the exit-safe point
// is kept at least as far as before, so that everything replayed is applied in safe mode.
#pragma once

#include <string>

#include "engine/binlog/location.h"
#include "engine/task/task_control.h"
#include "engine/task/task_setup.h"

namespace syncscope::task {

// Empty when the target can be used; else what is wrong with it.
std::string validateResumeTarget(const ResumeTarget& target);
// Empty when the upstream still has the target; else what is wrong, naming what the upstream has: a
// file it does not have (purged, or never written), a position past a file's end, a GTID beyond its
// history or in a purged file. Nothing is written before this says yes.
std::string checkResumeTargetUpstream(const TaskSetup& setup, const ResumeTarget& target);
// "mysql-bin.000003:1234" or "gtid 0-1-5".
std::string describeResumeTarget(const ResumeTarget& target);
// Writes the new checkpoint in one transaction and returns the global point it replaced (the undo).
// Throws with the downstream's error (nothing changed then).
binlog::Location writeResumePoint(const TaskSetup& setup, const ResumeTarget& target);
// --remove-meta: deletes this task's checkpoint rows of its source, so it starts from its meta.
void removeTaskMeta(const TaskSetup& setup);

}  // namespace syncscope::task
