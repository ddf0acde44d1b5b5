// A FIFO queue in one ring of slots that keeps its capacity: pushing and popping allocate nothing once
// the ring has grown to the queue's usual depth (std::deque allocates a block every few items of the
// size of a row change, and frees it again, on the apply workers' hot path).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace syncscope::apply {

template <typename T>
class RingQueue {
public:
    bool empty() const { return size_ == 0; }
    size_t size() const { return size_; }

    void push_back(T item) {
        if (size_ == slots_.size()) {
            grow();
        }
        slots_[(head_ + size_) % slots_.size()] = std::move(item);
        ++size_;
    }

    T& front() { return slots_[head_]; }

    // Leaves the popped slot moved-from (the caller moved the item out of front() first).
    void pop_front() {
        slots_[head_] = T{};
        head_ = (head_ + 1) % slots_.size();
        --size_;
    }

private:
    static constexpr size_t kInitialSlots = 64;

    void grow() {
        std::vector<T> larger(slots_.empty() ? kInitialSlots : slots_.size() * 2);
        for (size_t i = 0; i < size_; ++i) {
            larger[i] = std::move(slots_[(head_ + i) % slots_.size()]);
        }
        slots_ = std::move(larger);
        head_ = 0;
    }

    std::vector<T> slots_;
    size_t head_ = 0;
    size_t size_ = 0;
};

}  // namespace syncscope::apply
