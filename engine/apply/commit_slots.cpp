#include "engine/apply/commit_slots.h"

#include <algorithm>

#include <spdlog/spdlog.h>

namespace syncscope::apply {

CommitSlots::CommitSlots(size_t ceiling, bool adaptive)
    : adaptive_(adaptive),
      controller_(std::max<size_t>(ceiling, 1)),
      limit_(adaptive ? controller_.limit() : controller_.ceiling()),
      reason_(adaptive
                  ? controller_.reason()
                  : "adaptive concurrency is off: worker-count " + std::to_string(controller_.ceiling()) + " at once"),
      purgeReadingDue_(adaptive),
      windowStart_(Clock::now()) {}

CommitSlots::Slot::Slot(CommitSlots& commitSlots) : slots_(commitSlots), since_(Clock::now()) {
    slots_.acquire();
    since_ = Clock::now();
}

CommitSlots::Slot::~Slot() {
    slots_.release(rows_, Clock::now() - since_);
}

void CommitSlots::acquire() {
    std::unique_lock lock(mutex_);
    if (busy_ >= limit_) {
        windowSaturated_ = true;
        slotFree_.wait(lock, [&] { return busy_ < limit_; });
    }
    ++busy_;
    // At the ceiling there is a slot for every worker and none ever waits: every slot taken at once is
    // what says the downstream, not the rows coming in, sets the pace.
    if (busy_ == limit_ && limit_ == controller_.ceiling()) {
        windowSaturated_ = true;
    }
}

void CommitSlots::release(uint64_t rows, Clock::duration open) {
    std::unique_lock lock(mutex_);
    --busy_;
    if (rows > 0) {
        windowRows_ += rows;
        ++windowTransactions_;
        windowBusySeconds_ += std::chrono::duration<double>(open).count();
    }
    auto now = Clock::now();
    size_t before = limit_;
    if (adaptive_ && now - windowStart_ >= kWindow) {
        closeWindow(now);
    }
    bool raised = limit_ > before;
    lock.unlock();
    if (raised) {
        slotFree_.notify_all();
    } else {
        slotFree_.notify_one();
    }
}

void CommitSlots::closeWindow(Clock::time_point now) {
    ConcurrencyWindow window;
    window.seconds = std::chrono::duration<double>(now - windowStart_).count();
    window.rows = windowRows_;
    window.transactions = windowTransactions_;
    window.busySeconds = windowBusySeconds_;
    // A worker waiting right now counts too: the window ends with demand above the limit.
    window.saturated = windowSaturated_;
    window.purgeBacklog = purgeBacklog_;
    purgeReadingDue_.store(true, std::memory_order_relaxed);
    ConcurrencyStep step = controller_.observe(window);
    if (step.changed) {
        ++changes_;
        spdlog::debug("apply concurrency: {} transactions at once: {}", step.limit, step.reason);
    }
    limit_ = step.limit;
    reason_ = step.reason;
    windowStart_ = now;
    windowRows_ = 0;
    windowTransactions_ = 0;
    windowBusySeconds_ = 0;
    windowSaturated_ = false;
}

void CommitSlots::purgeBacklogRead(std::optional<uint64_t> backlog) {
    std::lock_guard lock(mutex_);
    purgeBacklog_ = backlog;
}

ConcurrencyView CommitSlots::view() const {
    std::lock_guard lock(mutex_);
    return ConcurrencyView{busy_, limit_, controller_.ceiling(), adaptive_, reason_, changes_};
}

}  // namespace syncscope::apply
