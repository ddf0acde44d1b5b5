// What the control API asks before a skip or a resume-from: what the command would leave out (or apply
// again), each row checked against the downstream, and, before a skip or a forward resume-from, the skipped
// rows saved as replayable SQL. Implemented over the task's setup (engine/preview); the API only serves it.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "engine/task/task_control.h"

namespace syncscope::control {

class CommandPreviewer {
public:
    virtual ~CommandPreviewer() = default;

    // Why the upstream's binlog (of the task `status` is of) refuses `target` as a resume point (inside a
    // transaction or an event, a file or GTID it does not have), naming what to use instead; empty when it is
    // one. Throws Error when the binlog cannot be read (the task's own check then decides).
    virtual std::string resumeTargetProblem(const task::StatusSnapshot& status, const task::ResumeTarget& target) = 0;
    // The preview of skipping the failed event's transaction (`status` has a failed event). Throws Error.
    virtual nlohmann::json previewSkip(const task::StatusSnapshot& status) = 0;
    // The preview of a resume-from `target` against the persisted global point in `status`. Throws Error.
    virtual nlohmann::json previewResumeFrom(const task::StatusSnapshot& status, const task::ResumeTarget& target) = 0;
    // Previews the skip and saves its replay SQL beside the audit log: what the skip's audit entry names.
    // Throws Error; nothing is saved then.
    virtual task::SkipEvidence saveSkippedRows(const task::StatusSnapshot& status) = 0;
    // The same for a resume-from `target`: the rows between the persisted global point and the target saved
    // when the resume-from goes forward (skips them); empty evidence when it goes back (nothing is skipped).
    // Throws Error; nothing is saved then.
    virtual task::SkipEvidence saveResumeFromSkippedRows(const task::StatusSnapshot& status,
                                                         const task::ResumeTarget& target) = 0;
};

}  // namespace syncscope::control
