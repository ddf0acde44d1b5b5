// Spreads row changes over the workers so that changes sharing a causality key stay in one worker
// (and so in binlog order). A key stays held by its worker until that worker has committed the last
// change that carried it; a change whose keys are held by two different workers is a conflict, which
// the caller resolves with a barrier (every worker drains) before dispatching it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>

namespace syncscope::apply {

class Dispatcher {
public:
    // Forgotten keys of committed changes are pruned when the map grows past this.
    static constexpr size_t kMinPruneSize = 65536;

    struct Decision {
        bool conflict = false;
        size_t worker = 0;
    };

    explicit Dispatcher(size_t workerCount) : workerCount_(workerCount == 0 ? 1 : workerCount) {}

    // Decides the worker for the change numbered `sequence` (increasing per dispatch) with `keys`
    // (first key = the row key). committedByWorker[w] is the sequence of the last change worker w has
    // committed. On a conflict nothing is recorded: clear() after the barrier, then assign again.
    Decision assign(std::span<const uint64_t> keys, uint64_t sequence, std::span<const uint64_t> committedByWorker);

    void clear() { held_.clear(); }
    size_t heldKeys() const { return held_.size(); }
    size_t workerCount() const { return workerCount_; }

private:
    struct Holder {
        size_t worker;
        uint64_t lastSequence;
    };

    void prune(std::span<const uint64_t> committedByWorker);

    size_t workerCount_;
    std::unordered_map<uint64_t, Holder> held_;
    size_t pruneAt_ = kMinPruneSize;
};

}  // namespace syncscope::apply
