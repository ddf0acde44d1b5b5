// A DM task, or one source's subtask of it, as the StatusSnapshot every front end already shows: the stage
// (Paused with an error is Error), the unit and worker in the reason, DM's master binlog as the upstream's
// position and its syncer binlog as the read and applied points, seconds behind master as the lag, the
// error and any blocking DDL as the last error. A cluster that does not answer gives Error "lost (last
// seen HH:MM:SS)" with the last error, never the last healthy figures. The checkpoint tables, when read,
// give the persisted points.
#pragma once

#include <string>

#include "engine/dmcluster/cluster_state.h"
#include "engine/dmcluster/dm_checkpoint_watch.h"
#include "engine/task/status_snapshot.h"

namespace syncscope::dmcluster {

// `source` empty: the whole task, its subtasks combined (an error in any is the task's, the worst lag).
task::StatusSnapshot dmTaskSnapshot(const ClusterState& state, const std::optional<TaskCheckpoints>& checkpoints,
                                    const std::string& taskName, const std::string& source,
                                    const std::string& clusterName);

// What is wrong with a subtask, on one line: its error, its blocking DDLs and unresolved DDL lock; "" when
// nothing is.
std::string subtaskProblem(const DmSubtask& subtask);

}  // namespace syncscope::dmcluster
