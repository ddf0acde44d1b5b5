#include "engine/verify/session_worker.h"

namespace syncscope::verify {

SessionWorker::SessionWorker(ServerSession& session) : session_(session), thread_([this] { run(); }) {}

SessionWorker::~SessionWorker() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        jobs_.clear();
    }
    wake_.notify_one();
    thread_.join();
}

void SessionWorker::enqueue(std::function<void(ServerSession&)> job) {
    {
        std::lock_guard lock(mutex_);
        jobs_.push_back(std::move(job));
    }
    wake_.notify_one();
}

void SessionWorker::run() {
    while (true) {
        std::function<void(ServerSession&)> job;
        {
            std::unique_lock lock(mutex_);
            wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
            if (stopping_) {
                return;
            }
            job = std::move(jobs_.front());
            jobs_.pop_front();
        }
        job(session_);  // a packaged task: whatever it throws goes to its future
    }
}

}  // namespace syncscope::verify
