// The DBA's "stop at a point" command on a Task: checked here, audited, handed to the pipeline through
// the setup's stop-point holder (sync_pipeline's stop_point_check.cpp acts on it).
#include "engine/task/task.h"

namespace syncscope::task {

CommandResult Task::stopAt(const std::string& point) {
    std::lock_guard lock(mutex_);
    if (point.empty()) {
        setup_.stopPoint->set(std::nullopt);
        audit("until", "no stop point");
        return {true, "no stop point"};
    }
    StopPoint parsed;
    try {
        parsed = StopPoint::parse(point);
    } catch (const Error& e) {
        return {false, e.what()};
    }
    std::string described = parsed.describe();
    // START SLAVE UNTIL a point already passed would stop at once; here the DBA is told and nothing changes.
    binlog::Location global = tracker_.globalInMemory();
    if (parsed.behind(global)) {
        return {false, described + " is already behind the task: it has applied up to " + global.toString() +
                           "; choose a later point"};
    }
    setup_.stopPoint->set(std::move(parsed));
    audit("until", described);
    return {true, "will pause at " + described};
}

}  // namespace syncscope::task
