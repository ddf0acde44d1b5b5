// A bounded queue of notices from the engine to its front ends. Notices are rare (stage changes,
// errors, operator actions); when a front end stops draining, the oldest non-error notices are
// folded into one "N notices dropped" line so that errors are never lost and memory stays bounded.
#pragma once

#include <deque>
#include <mutex>
#include <vector>

#include "engine/task/task_control.h"

namespace syncscope::task {

class NoticeQueue {
public:
    static constexpr size_t kCapacity = 4096;

    void push(Notice notice) {
        std::lock_guard lock(mutex_);
        if (notices_.size() >= kCapacity) {
            dropOldestNonError();
        }
        notices_.push_back(std::move(notice));
    }

    std::vector<Notice> drain(size_t maxCount) {
        std::lock_guard lock(mutex_);
        std::vector<Notice> out;
        if (dropped_ > 0) {
            out.push_back({Clock::now(), notices_.empty() ? Stage::New : notices_.front().stage,
                           std::to_string(dropped_) + " older notices were dropped because nobody read them", false});
            dropped_ = 0;
        }
        while (!notices_.empty() && out.size() < maxCount) {
            out.push_back(std::move(notices_.front()));
            notices_.pop_front();
        }
        return out;
    }

private:
    void dropOldestNonError() {
        for (auto it = notices_.begin(); it != notices_.end(); ++it) {
            if (!it->isError) {
                notices_.erase(it);
                ++dropped_;
                return;
            }
        }
        notices_.pop_front();  // only errors: keep the newest
        ++dropped_;
    }

    std::mutex mutex_;
    std::deque<Notice> notices_;
    size_t dropped_ = 0;
};

}  // namespace syncscope::task
