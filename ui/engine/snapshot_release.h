// Status snapshots the GUI let go of are freed on a worker thread, never on the GUI thread. A snapshot is
// allocated by an engine thread (or a remote poller): freeing it takes the lock of that thread's malloc arena,
// which the engine thread, running at a lower priority on a busy machine, may hold while it waits for a core, so
// the GUI thread waited with it (bench_gui_fleet: 100-350 ms in _int_free); and a fleet's snapshots hold tens of
// thousands of table points, whose freeing alone was most of a tick.
#pragma once

#include <memory>
#include <vector>

#include "engine/task/status_snapshot.h"

namespace syncscope::ui {

// Drops these references on a worker thread (whichever of them is the last frees the snapshot there).
void releaseOffTheGuiThread(std::vector<std::shared_ptr<const task::StatusSnapshot>> snapshots);
void releaseOffTheGuiThread(std::shared_ptr<const task::StatusSnapshot> snapshot);

}  // namespace syncscope::ui
