// How long until the task catches up: the bytes of binlog between the applied point and the
// upstream's end, over the rate at which that distance shrinks (applied bytes per second minus the
// upstream's own growth). The rates shown are those of the last kWindow; the ETA takes its closing rate
// over a longer stretch, up to kEtaWindow since the estimate (re)started: a backlog is applied at a rate
// that swings with the machine's load and the binlog's mix from one 30 s to the next, and an ETA that
// followed every swing misled more than it told (bench-catchup, see README). Fed by the status publisher.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>

#include "engine/task/status_snapshot.h"

namespace syncscope::task {

class CatchUpEstimate {
public:
    static constexpr std::chrono::seconds kWindow{30};
    static constexpr std::chrono::seconds kEtaWindow{1200};
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
    // The oldest sample at most `window` before `now` (the front when the history is shorter).
    const Sample& startOfWindow(Clock::time_point now, std::chrono::seconds window) const;

    std::deque<Sample> samples_;
};

}  // namespace syncscope::task
