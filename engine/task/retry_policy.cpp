#include "engine/task/retry_policy.h"

#include <algorithm>
#include <cstdint>

namespace syncscope::task {

std::chrono::milliseconds RetryPolicy::nextDelay() {
    constexpr int kMaxDoublings = 6;  // 64 s before the cap
    std::chrono::milliseconds delay = kFirstDelay * (int64_t{1} << std::min(attempts_, kMaxDoublings));
    delay = std::min(delay, kMaxDelay);
    ++attempts_;
    std::uniform_real_distribution<double> jitter(1.0 - kJitter, 1.0 + kJitter);
    return std::chrono::milliseconds(static_cast<int64_t>(static_cast<double>(delay.count()) * jitter(random_)));
}

}  // namespace syncscope::task
