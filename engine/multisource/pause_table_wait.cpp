#include "engine/multisource/pause_table_wait.h"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "engine/common/thread_priority.h"

namespace syncscope::multisource {

PauseTableWait::PauseTableWait(std::shared_ptr<PausedSources> paused, std::string taskName)
    : paused_(std::move(paused)), taskName_(std::move(taskName)) {}

PauseTableWait::~PauseTableWait() {
    cancel();
}

void PauseTableWait::begin(std::function<void(const std::string& told)> onRead) {
    cancel();  // a thread left from an earlier start
    std::lock_guard lock(mutex_);
    cancelled_ = false;
    state_ = State{true, {}, 0};
    thread_ = std::thread(&PauseTableWait::readUntilRead, this, std::move(onRead));
}

void PauseTableWait::cancel() {
    {
        std::lock_guard lock(mutex_);
        cancelled_ = true;
        state_.waiting = false;
    }
    wake_.notify_all();
    if (thread_.joinable()) {
        thread_.join();
    }
}

PauseTableWait::State PauseTableWait::state() const {
    std::lock_guard lock(mutex_);
    return state_;
}

void PauseTableWait::readUntilRead(std::function<void(const std::string&)> onRead) {
    applyEngineThreadPriority();
    std::chrono::milliseconds delay = kFirstRetryDelay;
    std::unique_lock lock(mutex_);
    while (!cancelled_) {
        lock.unlock();
        std::string told;
        std::string problem;
        bool retry = true;
        try {
            told = paused_->readTable();
        } catch (const PausedSourcesUnreadable& e) {
            problem = e.what();
            retry = e.retryable();
        } catch (const std::exception& e) {
            problem = e.what();
        }
        lock.lock();
        if (cancelled_) {
            return;
        }
        if (problem.empty() || !retry) {
            state_.waiting = false;
            lock.unlock();
            onRead(problem.empty() ? told
                                   : "the pauses kept in the downstream cannot be read (" + problem +
                                         "), and a retry would not help: the copy beside the audit log is used alone");
            return;
        }
        state_.problem = problem;
        ++state_.attempts;
        spdlog::warn("task {}: {}; reading them again in {} ms (attempt {})", taskName_, problem, delay.count(),
                     state_.attempts);
        wake_.wait_for(lock, delay, [this] { return cancelled_; });
        delay = std::min(delay * 2, kMaxRetryDelay);
    }
}

}  // namespace syncscope::multisource
