#include "engine/task/catch_up_estimate.h"

#include <algorithm>

namespace syncscope::task {

namespace {

double secondsBetween(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
}

}  // namespace

const CatchUpEstimate::Sample& CatchUpEstimate::startOfWindow(Clock::time_point now,
                                                              std::chrono::seconds window) const {
    auto first = std::lower_bound(samples_.begin(), samples_.end(), now - window,
                                  [](const Sample& sample, Clock::time_point at) { return sample.at < at; });
    return first == samples_.end() ? samples_.back() : *first;
}

CatchUpView CatchUpEstimate::update(std::optional<uint64_t> appliedAxis, std::optional<uint64_t> upstreamAxis,
                                    Clock::time_point now) {
    CatchUpView result;
    if (!appliedAxis || !upstreamAxis) {
        samples_.clear();
        return result;
    }
    result.behindBytes = *upstreamAxis > *appliedAxis ? *upstreamAxis - *appliedAxis : 0;
    // A point that moved back (a resume from an earlier position, files purged and the axis rebuilt)
    // makes the history meaningless.
    if (!samples_.empty() && (*appliedAxis < samples_.back().applied || *upstreamAxis < samples_.back().upstream)) {
        samples_.clear();
    }
    samples_.push_back(Sample{now, *appliedAxis, *upstreamAxis});
    while (samples_.size() > 2 && now - samples_[1].at >= kEtaWindow) {
        samples_.pop_front();
    }
    if (result.behindBytes == 0) {
        result.etaSeconds = 0.0;
    }
    const double minimum = std::chrono::duration<double>(kMinHistory).count();
    const Sample& recent = startOfWindow(now, kWindow);
    const double recentSeconds = secondsBetween(recent.at, now);
    if (recentSeconds < minimum) {
        return result;
    }
    result.appliedBytesPerSecond = double(*appliedAxis - recent.applied) / recentSeconds;
    result.upstreamBytesPerSecond = double(*upstreamAxis - recent.upstream) / recentSeconds;
    const Sample& longest = samples_.front();
    const double longSeconds = secondsBetween(longest.at, now);
    const double closing =
        (double(*appliedAxis - longest.applied) - double(*upstreamAxis - longest.upstream)) / longSeconds;
    if (result.behindBytes > 0 && closing > 0) {
        result.etaSeconds = double(result.behindBytes) / closing;
    }
    return result;
}

}  // namespace syncscope::task
