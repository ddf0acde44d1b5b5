// Spreads row changes over the workers so that changes sharing a causality key stay in one worker
// (and so in binlog order). A key stays held by its worker until that worker has committed the last
// change that carried it; a change whose keys are held by two different workers is a conflict, which
// the caller resolves with a barrier (every worker drains) before dispatching it.
//
// The held keys live in one open-addressing table (no allocation per key: the catch-up profile showed
// the node map's allocations and cache misses at a tenth of the reader thread's time). Keys are
// already hashes, so they index the table directly after a multiplicative mix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace syncscope::apply {

class Dispatcher {
public:
    // Slots of the key table at first and at least (192 KB); forgotten keys of committed changes are
    // pruned (and the table doubled only if the held keys alone fill a quarter of it) when half of its
    // slots are in use. The table grows with the keys really held (those of the changes queued and not yet
    // committed); a first size of 128 Ki slots cost 6 MB (the table and its spare) whether held or not.
    static constexpr size_t kInitialSlots = size_t{1} << 13;

    struct Decision {
        bool conflict = false;
        size_t worker = 0;
    };

    explicit Dispatcher(size_t workerCount);

    // Decides the worker for the change numbered `sequence` (increasing per dispatch, from 1) with
    // `keys` (first key = the row key). committedByWorker[w] is the sequence of the last change worker w
    // has committed. A change none of whose keys is held goes to one of the first `spreadOver` workers
    // (by its row key; 0 or more than the workers means all of them), so that with fewer transactions
    // allowed at once the rows gather on fewer workers in bigger batches. On a conflict nothing is
    // recorded: clear() after the barrier, then assign again.
    Decision assign(std::span<const uint64_t> keys, uint64_t sequence, std::span<const uint64_t> committedByWorker,
                    size_t spreadOver = 0);

    void clear();
    size_t heldKeys() const { return used_; }
    size_t workerCount() const { return workerCount_; }

private:
    struct Holder {
        uint64_t key = 0;
        uint64_t lastSequence = 0;  // 0: the slot is free
        size_t worker = 0;
    };

    Holder& slotFor(uint64_t key);  // the key's slot, or the free slot where it belongs
    void rebuild(std::span<const uint64_t> committedByWorker);

    static constexpr size_t kRememberedSlots = 8;  // more than a change carries (kCarriedKeys)

    size_t workerCount_;
    std::vector<Holder> slots_;
    // The table before the last rebuild, kept for the next one: a rebuild otherwise allocates fresh
    // pages each time (at 128 Ki slots the page faults were 1% of a catch-up's client CPU).
    std::vector<Holder> spare_;
    size_t used_ = 0;
    int shift_ = 0;  // 64 - log2(slots)
};

}  // namespace syncscope::apply
