// Where a source kept paused across a restart stands before it runs: the engine's Task reads its persisted
// checkpoint only when its first session starts, so a source paused again at start would show no points (no ruler,
// no "checkpoint at" in its reason). Its checkpoint rows are read once at start instead and put into its status
// until the Task has read them itself.
#pragma once

#include <memory>
#include <string>

#include "engine/checkpoint/checkpoint_point.h"
#include "engine/task/status_snapshot.h"
#include "engine/task/task_setup.h"

namespace syncscope::multisource {

struct PausedCheckpoint {
    checkpoint::PersistedCheckpoint persisted;
    std::string error;  // why the rows could not be read (names the table and the downstream); "" when read
};

// The source's rows of `<meta-schema>.<task>_syncer_checkpoint` on the task's downstream (one short connection).
PausedCheckpoint readPausedCheckpoint(const task::TaskSetup& setup);

// "FILE:POS (GTID)" of the persisted global point, or why there is none.
std::string describePausedCheckpoint(const PausedCheckpoint& read, const task::TaskSetup& setup);

// `snapshot` with the persisted global, exit-safe and table points of `persisted` placed on the upstream's binlog
// files that snapshot lists (the ruler's axis); the points in memory are the persisted ones, as after a load.
std::shared_ptr<task::StatusSnapshot> withPersistedPoints(const task::StatusSnapshot& snapshot,
                                                          const checkpoint::PersistedCheckpoint& persisted);

}  // namespace syncscope::multisource
