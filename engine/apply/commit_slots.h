// How many apply workers may have a downstream transaction open at once. A worker takes a slot before
// it runs a batch and gives it back after the commit (or the rollback), saying how many rows it
// committed and how long the transaction was open; a slot is never held while a worker waits for rows,
// so a waiting worker never holds a lock another one needs. With adaptive concurrency on, every
// measurement window (kWindow) feeds a ConcurrencyController that moves the limit within the ceiling
// (`worker-count`), with the downstream's purge backlog one of the workers read during the window; off, the
// limit is the ceiling.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "engine/apply/concurrency_controller.h"

namespace syncscope::apply {

// What the status shows: "busy / allowed of ceiling", and why the limit is what it is.
struct ConcurrencyView {
    size_t busy = 0;     // transactions open downstream right now
    size_t allowed = 1;  // the current limit
    size_t ceiling = 1;  // worker-count
    bool adaptive = false;
    std::string reason;
    uint64_t changes = 0;  // how often the limit moved
};

class CommitSlots {
public:
    using Clock = std::chrono::steady_clock;
    static constexpr std::chrono::milliseconds kWindow{500};

    CommitSlots(size_t ceiling, bool adaptive);

    // Held for one downstream transaction of one worker; returned by the destructor.
    class Slot {
    public:
        explicit Slot(CommitSlots& commitSlots);
        ~Slot();
        Slot(const Slot&) = delete;
        Slot& operator=(const Slot&) = delete;
        // The transaction committed these rows (otherwise the slot is returned as a rollback).
        void committed(uint64_t rows) { rows_ = rows; }

    private:
        CommitSlots& slots_;
        Clock::time_point since_;
        uint64_t rows_ = 0;
    };

    ConcurrencyView view() const;

    // Once per measurement window one worker, between its transactions, reads the downstream's purge
    // backlog for the controller: true for the worker whose turn it is (adaptive concurrency only).
    bool takePurgeReading() { return purgeReadingDue_.exchange(false, std::memory_order_relaxed); }
    void purgeBacklogRead(std::optional<uint64_t> backlog);

private:
    void acquire();
    void release(uint64_t rows, Clock::duration open);
    void closeWindow(Clock::time_point now);  // with mutex_ held

    mutable std::mutex mutex_;
    std::condition_variable slotFree_;
    bool adaptive_;
    ConcurrencyController controller_;
    size_t limit_;
    size_t busy_ = 0;
    uint64_t changes_ = 0;
    std::string reason_;
    std::atomic<bool> purgeReadingDue_{false};
    std::optional<uint64_t> purgeBacklog_;  // the latest reading

    // The current measurement window.
    Clock::time_point windowStart_;
    uint64_t windowRows_ = 0;
    uint64_t windowTransactions_ = 0;
    double windowBusySeconds_ = 0;
    bool windowSaturated_ = false;
};

}  // namespace syncscope::apply
