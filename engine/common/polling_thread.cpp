#include "engine/common/polling_thread.h"

#include "engine/common/thread_priority.h"

namespace syncscope {

PollingThread::PollingThread(std::chrono::milliseconds interval, std::function<void()> poll)
    : interval_(interval), poll_(std::move(poll)) {
    thread_ = std::thread(&PollingThread::loop, this);
}

PollingThread::~PollingThread() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void PollingThread::pollNow() {
    {
        std::lock_guard lock(mutex_);
        requested_ = true;
    }
    wake_.notify_all();
}

void PollingThread::loop() {
    applyEngineThreadPriority();
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        requested_ = false;
        lock.unlock();
        poll_();
        lock.lock();
        wake_.wait_for(lock, interval_, [this] { return stopping_ || requested_; });
    }
}

}  // namespace syncscope
