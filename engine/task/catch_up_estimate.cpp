#include "engine/task/catch_up_estimate.h"

namespace syncscope::task {

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
    while (samples_.size() > 2 && now - samples_[1].at >= kWindow) {
        samples_.pop_front();
    }
    if (result.behindBytes == 0) {
        result.etaSeconds = 0.0;
    }
    const Sample& first = samples_.front();
    double seconds = std::chrono::duration<double>(now - first.at).count();
    if (seconds < std::chrono::duration<double>(kMinHistory).count()) {
        return result;
    }
    result.appliedBytesPerSecond = double(*appliedAxis - first.applied) / seconds;
    result.upstreamBytesPerSecond = double(*upstreamAxis - first.upstream) / seconds;
    double closing = result.appliedBytesPerSecond - result.upstreamBytesPerSecond;
    if (result.behindBytes > 0 && closing > 0) {
        result.etaSeconds = double(result.behindBytes) / closing;
    }
    return result;
}

}  // namespace syncscope::task
