// The chunks a load's workers copy, handed out largest first. A table whose chunks are found by
// walking its key starts as one pending whole-table chunk, held back while the walk runs; the walked
// chunks take its place (the first keeps its name) and join the queue, so copying starts before every
// key has been walked. A worker that finds the queue empty waits while a walk may still add chunks.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <vector>

#include "engine/load/load_plan.h"

namespace syncscope::load {

class ChunkQueue {
public:
    // The pending chunks of `chunks` join the queue, except those `heldForWalk` picks.
    ChunkQueue(std::vector<LoadChunk> chunks, const std::function<bool(const LoadChunk&)>& heldForWalk);

    // The chunks held back for a walk (stable addresses until the queue is destroyed).
    const std::vector<LoadChunk*>& heldForWalk() const { return held_; }

    // The largest ready chunk; none (nullptr) once nothing is ready and no walk runs, or `halt` is set.
    LoadChunk* next(const std::atomic<bool>& halt);
    // A held chunk's walk ended: with its chunks (`walked`, the first named as `held`), which take its
    // place and join the queue; or without (stopped or failed: the chunk stays pending, not queued).
    void walkEnded(LoadChunk& held, std::vector<LoadChunk> walked);

    // Every chunk of the plan as it stands: walked tables by their walked chunks, in name order.
    std::vector<LoadChunk> plan() const;

private:
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<LoadChunk> chunks_;  // a deque: workers hold pointers while walks append
    std::vector<LoadChunk*> held_;
    std::vector<LoadChunk*> ready_;  // a heap, largest estimate on top
    size_t walksRunning_ = 0;
};

}  // namespace syncscope::load
