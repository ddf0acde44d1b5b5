#include "engine/apply/dispatcher.h"

#include <bit>
#include <optional>

namespace syncscope::apply {

namespace {

constexpr uint64_t kGoldenRatio = 0x9E3779B97F4A7C15ULL;  // Fibonacci hashing: spreads close keys apart

bool stillHeld(const auto& holder, std::span<const uint64_t> committedByWorker) {
    return holder.worker >= committedByWorker.size() || committedByWorker[holder.worker] < holder.lastSequence;
}

}  // namespace

Dispatcher::Dispatcher(size_t workerCount)
    : workerCount_(workerCount == 0 ? 1 : workerCount),
      slots_(kInitialSlots),
      shift_(64 - std::countr_zero(kInitialSlots)) {}

void Dispatcher::clear() {
    slots_.assign(kInitialSlots, Holder{});
    shift_ = 64 - std::countr_zero(kInitialSlots);
    used_ = 0;
}

Dispatcher::Holder& Dispatcher::slotFor(uint64_t key) {
    size_t mask = slots_.size() - 1;
    for (size_t i = static_cast<size_t>((key * kGoldenRatio) >> shift_);; i = (i + 1) & mask) {
        Holder& slot = slots_[i];
        if (slot.lastSequence == 0 || slot.key == key) {
            return slot;
        }
    }
}

Dispatcher::Holder* Dispatcher::find(uint64_t key) {
    Holder& slot = slotFor(key);
    return slot.lastSequence == 0 ? nullptr : &slot;
}

Dispatcher::Decision Dispatcher::assign(std::span<const uint64_t> keys, uint64_t sequence,
                                        std::span<const uint64_t> committedByWorker, size_t spreadOver) {
    std::optional<size_t> owner;
    for (uint64_t key : keys) {
        const Holder* holder = find(key);
        if (holder == nullptr || !stillHeld(*holder, committedByWorker)) {
            continue;
        }
        if (owner && *owner != holder->worker) {
            return {true, 0};
        }
        owner = holder->worker;
    }
    size_t spread = spreadOver == 0 || spreadOver > workerCount_ ? workerCount_ : spreadOver;
    size_t worker = owner ? *owner : (keys.empty() ? 0 : static_cast<size_t>(keys.front() % spread));
    for (uint64_t key : keys) {
        Holder& slot = slotFor(key);
        if (slot.lastSequence == 0) {
            ++used_;
        }
        slot = Holder{key, sequence, worker};
    }
    if (used_ * 2 >= slots_.size()) {
        rebuild(committedByWorker);
    }
    return {false, worker};
}

// Keeps the keys still held (their worker has not committed their last change), in a table twice
// as large if they alone fill half of it.
void Dispatcher::rebuild(std::span<const uint64_t> committedByWorker) {
    slots_.swap(spare_);
    const std::vector<Holder>& old = spare_;
    size_t kept = 0;
    for (const Holder& holder : old) {
        kept += holder.lastSequence != 0 && stillHeld(holder, committedByWorker) ? 1 : 0;
    }
    size_t size = kInitialSlots;
    while (kept * 4 > size) {
        size *= 2;
    }
    slots_.assign(size, Holder{});
    shift_ = 64 - std::countr_zero(size);
    used_ = 0;
    for (const Holder& holder : old) {
        if (holder.lastSequence != 0 && stillHeld(holder, committedByWorker)) {
            slotFor(holder.key) = holder;
            ++used_;
        }
    }
}

}  // namespace syncscope::apply
