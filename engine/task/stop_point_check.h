// The pipeline's side of "stop at a point" (stop_point.h): asked before each event and told of each
// group's end, so that a session ends, and flushes, exactly at the end of a transaction.
#pragma once

#include <memory>
#include <string>

#include "engine/binlog/event.h"
#include "engine/binlog/location.h"
#include "engine/task/stop_point.h"

namespace syncscope::task {

class StopPointCheck {
public:
    StopPointCheck(std::shared_ptr<StopPointHolder> holder, std::string taskName);

    // Before `event` is handled (read from `file` when the event does not name it): true when it opens a
    // transaction in front of which the stop point lies (the session ends there, between groups).
    bool stopsBefore(const binlog::Event& event, const std::string& file, bool inGroup);
    // A group ended at `end` (its position and the GTID state after it).
    void groupEnded(const binlog::Location& end);

    bool reached() const { return !reached_.empty(); }
    // "the stop point ... (at the end of the transaction ending at ...)", empty until reached.
    const std::string& reason() const { return reached_; }

private:
    std::shared_ptr<StopPointHolder> holder_;
    std::string taskName_;
    std::string reached_;
};

}  // namespace syncscope::task
