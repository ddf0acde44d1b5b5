// When a task that stopped on a retryable error tries again: after about 1 s, doubling up to 60 s, each delay
// moved by up to +-20% so that the tasks behind one failed server do not all come back in the same second.
// A session that got somewhere (the persisted global point moved) starts the count again: what follows is a
// new outage, not the same one.
#pragma once

#include <chrono>
#include <random>

namespace syncscope::task {

class RetryPolicy {
public:
    static constexpr std::chrono::milliseconds kFirstDelay{1000};
    static constexpr std::chrono::milliseconds kMaxDelay{60000};
    static constexpr double kJitter = 0.2;

    // The delay before the next attempt; counts the attempt.
    std::chrono::milliseconds nextDelay();
    int attempts() const { return attempts_; }
    // The DBA's resume or skip, or a session that moved the persisted point.
    void reset() { attempts_ = 0; }

private:
    int attempts_ = 0;
    std::mt19937 random_{std::random_device{}()};
};

}  // namespace syncscope::task
