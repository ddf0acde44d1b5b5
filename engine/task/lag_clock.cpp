#include "engine/task/lag_clock.h"

#include <algorithm>

namespace syncscope::task {

namespace {

double secondsBetween(LagClock::WallClock::time_point from, LagClock::WallClock::time_point to) {
    return std::max(0.0, std::chrono::duration<double>(to - from).count());
}

}  // namespace

double LagClock::lagSeconds(uint32_t oldestUnapplied, const PointView& read,
                            const std::optional<binlog::BinlogPosition>& upstream, WallClock::time_point now) {
    if (oldestUnapplied != 0) {
        unappliedSince_.reset();
        auto nowSeconds = std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
        return std::max<double>(0, static_cast<double>(nowSeconds - static_cast<int64_t>(oldestUnapplied)));
    }
    if (!read.known()) {
        unappliedSince_.reset();
        return 0;  // never ran: nothing is known about what the downstream lacks
    }
    if (!upstream) {
        // Unreachable now: as far behind as since it was last seen ahead (or not known to be).
        return unappliedSince_ ? secondsBetween(*unappliedSince_, now) : 0;
    }
    binlog::BinlogPosition readPosition(read.file, read.pos);
    if (!(readPosition < *upstream)) {
        unappliedSince_.reset();
        return 0;
    }
    if (!unappliedSince_ || !(readPosition < seenUpstream_)) {
        // Newly ahead, or the stream has passed what was seen ahead before: count from now.
        unappliedSince_ = now;
        seenUpstream_ = *upstream;
    }
    return secondsBetween(*unappliedSince_, now);
}

}  // namespace syncscope::task
