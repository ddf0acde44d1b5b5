#include "engine/load/batch_sender.h"

namespace syncscope::load {

BatchSender::BatchSender() : thread_([this] { run(); }) {}

BatchSender::~BatchSender() {
    {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return !busy_; });
        quit_ = true;
    }
    changed_.notify_all();
    thread_.join();
}

void BatchSender::send(std::function<void()> send) {
    wait();
    {
        std::lock_guard lock(mutex_);
        job_ = std::move(send);
        busy_ = true;
    }
    changed_.notify_all();
}

void BatchSender::wait() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return !busy_; });
    if (failure_) {
        std::exception_ptr failure = failure_;
        failure_ = nullptr;
        std::rethrow_exception(failure);
    }
}

void BatchSender::settle() noexcept {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return !busy_; });
    failure_ = nullptr;
}

void BatchSender::run() {
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [this] { return busy_ || quit_; });
        if (busy_) {
            std::function<void()> job = std::move(job_);
            lock.unlock();
            std::exception_ptr failure;
            try {
                job();
            } catch (...) {
                failure = std::current_exception();
            }
            job = nullptr;  // what it captured goes before the caller is told
            lock.lock();
            failure_ = failure;
            busy_ = false;
            changed_.notify_all();
        } else {
            return;  // quit_ and nothing in flight
        }
    }
}

}  // namespace syncscope::load
