// What the control API asks before a skip or a resume-from: what the command would leave out (or apply
// again), each row checked against the downstream, and, before a skip, the skipped rows saved as replayable
// SQL. Implemented over the task's setup (engine/preview); the API only serves it.
#pragma once

#include <nlohmann/json.hpp>

#include "engine/task/task_control.h"

namespace syncscope::control {

class CommandPreviewer {
public:
    virtual ~CommandPreviewer() = default;

    // The preview of skipping the failed event's transaction (`status` has a failed event). Throws Error.
    virtual nlohmann::json previewSkip(const task::StatusSnapshot& status) = 0;
    // The preview of a resume-from `target` against the persisted global point in `status`. Throws Error.
    virtual nlohmann::json previewResumeFrom(const task::StatusSnapshot& status, const task::ResumeTarget& target) = 0;
    // Previews the skip and saves its replay SQL beside the audit log: what the skip's audit entry names.
    // Throws Error; nothing is saved then.
    virtual task::SkipEvidence saveSkippedRows(const task::StatusSnapshot& status) = 0;
};

}  // namespace syncscope::control
