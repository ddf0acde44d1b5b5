// Seconds behind the upstream, from the oldest event not yet applied downstream (DM's
// seconds_behind_master, told truthfully in every state):
// - when something read is not yet applied (a dispatched transaction not committed, an open one, a
//   failed one, one cut short by a pause): from that event's upstream time, so it grows while a
//   barrier, a slow worker or an error holds it up, and while nobody resumes;
// - when everything read is applied: 0 while the read point is at the upstream's position; once the
//   upstream is seen past it (polled every second), from that moment, until the read point passes
//   what was seen. So a caught-up task shows 0, and a paused one grows from the upstream's next write.
// Used by the status publisher's thread only.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "engine/binlog/binlog_position.h"
#include "engine/task/status_snapshot.h"

namespace syncscope::task {

// What a finished session left behind, kept by the task between sessions.
struct EndedSessionView {
    PointView read;                         // where it stopped reading
    uint32_t oldestUnappliedTimestamp = 0;  // what it left unapplied; 0 when nothing
};

class LagClock {
public:
    using WallClock = std::chrono::system_clock;

    // `oldestUnapplied`: upstream time of the oldest event read but not applied, 0 when none; `read`:
    // where the stream stands (unknown before the first session); `upstream`: the upstream's current
    // position when known.
    double lagSeconds(uint32_t oldestUnapplied, const PointView& read,
                      const std::optional<binlog::BinlogPosition>& upstream, WallClock::time_point now);

private:
    std::optional<WallClock::time_point> unappliedSince_;  // when the upstream was seen past `read`
    binlog::BinlogPosition seenUpstream_;                  // where it was then
};

}  // namespace syncscope::task
