#include "engine/apply/dispatcher.h"

#include <array>
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

Dispatcher::Decision Dispatcher::assign(std::span<const uint64_t> keys, uint64_t sequence,
                                        std::span<const uint64_t> committedByWorker, size_t spreadOver) {
    // Each key is looked up once: its slot is remembered for the recording below (nothing moves the
    // slots in between). A free slot remembered for a new key may meanwhile hold another new key of
    // this change that probed to it first; that key, and a change with more keys than remembered, look
    // their slot up again.
    std::array<Holder*, kRememberedSlots> remembered{};
    std::optional<size_t> owner;
    for (size_t i = 0; i < keys.size(); ++i) {
        Holder& slot = slotFor(keys[i]);
        if (i < remembered.size()) {
            remembered[i] = &slot;
        }
        if (slot.lastSequence == 0 || !stillHeld(slot, committedByWorker)) {
            continue;
        }
        if (owner && *owner != slot.worker) {
            return {true, 0};
        }
        owner = slot.worker;
    }
    size_t spread = spreadOver == 0 || spreadOver > workerCount_ ? workerCount_ : spreadOver;
    size_t worker = owner ? *owner : (keys.empty() ? 0 : static_cast<size_t>(keys.front() % spread));
    for (size_t i = 0; i < keys.size(); ++i) {
        Holder* slot = i < remembered.size() ? remembered[i] : nullptr;
        if (slot == nullptr || (slot->lastSequence != 0 && slot->key != keys[i])) {
            slot = &slotFor(keys[i]);
        }
        if (slot->lastSequence == 0) {
            ++used_;
        }
        *slot = Holder{keys[i], sequence, worker};
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
