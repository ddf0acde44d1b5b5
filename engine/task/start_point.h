// Where a session starts reading, and what the upstream has written so far: the persisted global point,
// else the task's meta, else (with a loud warning) the upstream's current position, which is then
// persisted at once (it covers no event).
#pragma once

#include <functional>
#include <optional>

#include "engine/binlog/location.h"
#include "engine/checkpoint/checkpoint_table.h"
#include "engine/task/task_setup.h"

namespace syncscope::task {

// Loads the checkpoint of the task's source from `table` into `persisted` and returns the start.
// `check` (when set) is given the start before anything is persisted: it may refuse it by throwing.
binlog::Location chooseStartPoint(const TaskSetup& setup, checkpoint::CheckpointTable& table,
                                  checkpoint::PersistedCheckpoint& persisted,
                                  const std::function<void(const binlog::Location&)>& check = {});

// The upstream's end of binlog now (SHOW MASTER STATUS), without GTIDs; nullopt (logged) when it cannot
// be read.
std::optional<binlog::Location> upstreamEndNow(const TaskSetup& setup);

}  // namespace syncscope::task
