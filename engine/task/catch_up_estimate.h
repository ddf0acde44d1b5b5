// How long until the task catches up: the bytes of binlog between the applied point and the
// upstream's end, over the rate at which that distance shrinks (applied bytes per second minus the
// upstream's own growth), both taken over the last kWindow. Fed by the status publisher.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

#include "engine/task/status_snapshot.h"

namespace syncscope::task {

class CatchUpEstimate {
public:
    static constexpr std::chrono::seconds kWindow{30};
    // Rates need at least this much history.
    static constexpr std::chrono::seconds kMinHistory{2};

    // The applied point and the upstream's end on the axis; nullopt when either is not on it (the
    // estimate starts over).
    CatchUpView update(std::optional<uint64_t> appliedAxis, std::optional<uint64_t> upstreamAxis,
                       Clock::time_point now);

private:
    struct Sample {
        Clock::time_point at;
        uint64_t applied;
        uint64_t upstream;
    };
    std::deque<Sample> samples_;
};

}  // namespace syncscope::task
