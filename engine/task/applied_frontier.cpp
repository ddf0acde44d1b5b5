#include "engine/task/applied_frontier.h"

namespace syncscope::task {

void AppliedFrontier::ended(uint64_t lastSequence, const PointView& end, uint32_t timestamp) {
    // Transactions that dispatched nothing share the sequence of the one before: they are applied
    // together with it, so one entry holds them (the queue stays as long as the workers' backlog of
    // dispatched transactions, not of filtered ones).
    if (!pending_.empty() && pending_.back().lastSequence == lastSequence) {
        pending_.back().end = end;
        return;
    }
    pending_.push_back({lastSequence, end, timestamp});
}

std::optional<PointView> AppliedFrontier::advance(uint64_t appliedSequence) {
    std::optional<PointView> last;
    while (!pending_.empty() && pending_.front().lastSequence <= appliedSequence) {
        last = std::move(pending_.front().end);
        pending_.pop_front();
    }
    return last;
}

}  // namespace syncscope::task
