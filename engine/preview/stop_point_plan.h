// What a stop point means before it is set: refused when it is no point or the task has passed it
// already; else where in the upstream's binlog the task would pause, and what it applies before that
// (read from the task's applied point). Nothing is skipped by a stop point: every transaction up to it
// is applied. For the GUI's Stop at a point confirmation.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "engine/browse/binlog_history.h"
#include "engine/common/server_settings.h"
#include "engine/task/status_snapshot.h"

namespace syncscope::preview {

struct StopPointPlan {
    std::string refusal;            // not empty: nothing to set (not a point, or already behind the task)
    std::string described;          // "the stop point GTID 0-1-42"
    bool found = false;             // the transaction where the task pauses is in the binlog already
    bool pauseBefore = false;       // a time: the task pauses in front of that transaction, not after it
    browse::BrowsePoint at;         // that transaction's end (its start when pauseBefore)
    std::string gtid;               // its GTID ("" without GTIDs)
    uint32_t timestamp = 0;         // its time
    uint64_t transactions = 0;      // applied before the pause, from the applied point on
    uint64_t rowChanges = 0;        // their row changes
    bool readLimitReached = false;  // not found within kMaxEventsRead events: the pause lies further
};

// At most this many events are read looking for the point (about a minute of a busy upstream).
inline constexpr uint64_t kStopPlanMaxEvents = 2000000;

// `applied`: what the task has surely applied (its applied point while it runs, else the persisted global
// point). Throws Error when the upstream cannot be read.
StopPointPlan planStopPoint(const ServerSettings& upstream, const task::PointView& applied, const std::string& text,
                            const std::atomic<bool>* cancel = nullptr);

}  // namespace syncscope::preview
