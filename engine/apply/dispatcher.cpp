#include "engine/apply/dispatcher.h"

#include <algorithm>
#include <optional>

namespace syncscope::apply {

Dispatcher::Decision Dispatcher::assign(std::span<const uint64_t> keys, uint64_t sequence,
                                        std::span<const uint64_t> committedByWorker) {
    auto stillHeld = [&](const Holder& holder) {
        return holder.worker >= committedByWorker.size() || committedByWorker[holder.worker] < holder.lastSequence;
    };
    std::optional<size_t> owner;
    for (uint64_t key : keys) {
        auto it = held_.find(key);
        if (it == held_.end() || !stillHeld(it->second)) {
            continue;
        }
        if (owner && *owner != it->second.worker) {
            return {true, 0};
        }
        owner = it->second.worker;
    }
    size_t worker = owner ? *owner : (keys.empty() ? 0 : static_cast<size_t>(keys.front() % workerCount_));
    for (uint64_t key : keys) {
        held_[key] = Holder{worker, sequence};
    }
    if (held_.size() >= pruneAt_) {
        prune(committedByWorker);
    }
    return {false, worker};
}

void Dispatcher::prune(std::span<const uint64_t> committedByWorker) {
    std::erase_if(held_, [&](const auto& entry) {
        const Holder& holder = entry.second;
        return holder.worker < committedByWorker.size() && committedByWorker[holder.worker] >= holder.lastSequence;
    });
    pruneAt_ = std::max(kMinPruneSize, held_.size() * 2);
}

}  // namespace syncscope::apply
