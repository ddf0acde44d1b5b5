// Where the downstream really stands while the workers run: the transactions handed to the workers,
// in binlog order, each with the dispatch sequence of its last row, its end point and its upstream
// timestamp. The worker pool says up to which sequence everything has committed; every transaction at
// or below it is applied, and the first one above it is the oldest unapplied event the lag is
// measured from. Only the pipeline's thread uses it.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

#include "engine/task/status_snapshot.h"

namespace syncscope::task {

class AppliedFrontier {
public:
    // A transaction (or DDL) ended whose last change got `lastSequence` (the pool's last dispatched
    // sequence, unchanged when the transaction dispatched nothing).
    void ended(uint64_t lastSequence, const PointView& end, uint32_t timestamp);

    // Everything up to `appliedSequence` has committed: drops those transactions and returns the end
    // of the last of them, if any.
    std::optional<PointView> advance(uint64_t appliedSequence);

    // The upstream timestamp of the oldest transaction not known to be applied; 0 when none.
    uint32_t oldestTimestamp() const { return pending_.empty() ? 0 : pending_.front().timestamp; }
    bool empty() const { return pending_.empty(); }
    size_t size() const { return pending_.size(); }
    void clear() { pending_.clear(); }

private:
    struct Pending {
        uint64_t lastSequence;
        PointView end;
        uint32_t timestamp;  // of the oldest transaction merged into this entry
    };
    std::deque<Pending> pending_;
};

}  // namespace syncscope::task
