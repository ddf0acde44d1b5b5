// The control API's previewer (engine/control/command_previewer.h) for one running task: previews read with
// the task's own setup, and the rows a skip or a forward resume-from leaves out saved as replayable SQL in the
// folder of the task's audit log.
#pragma once

#include <string>

#include "engine/control/command_previewer.h"
#include "engine/task/task_setup.h"

namespace syncscope::preview {

class TaskCommandPreviewer : public control::CommandPreviewer {
public:
    // `sqlFolder`: where replay SQL files go (the task's log folder, beside its audit log).
    TaskCommandPreviewer(task::TaskSetup setup, std::string sqlFolder);

    std::string resumeTargetProblem(const task::StatusSnapshot& status, const task::ResumeTarget& target) override;
    nlohmann::json previewSkip(const task::StatusSnapshot& status) override;
    nlohmann::json previewResumeFrom(const task::StatusSnapshot& status, const task::ResumeTarget& target) override;
    task::SkipEvidence saveSkippedRows(const task::StatusSnapshot& status) override;
    task::SkipEvidence saveResumeFromSkippedRows(const task::StatusSnapshot& status,
                                                 const task::ResumeTarget& target) override;

private:
    task::TaskSetup setup_;
    std::string sqlFolder_;
};

}  // namespace syncscope::preview
