// The skip and resume-from previews of a task with several sources: each subtask's status names its source,
// and the preview is read through that source's own setup (its upstream, filters and routes).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/control/command_previewer.h"
#include "engine/task/task_setup.h"

namespace syncscope::multisource {

class SubtaskPreviewer : public control::CommandPreviewer {
public:
    // `sqlFolder`: where a skip's replay SQL goes (the task's log folder).
    SubtaskPreviewer(const std::vector<task::TaskSetup>& subtasks, const std::string& sqlFolder);

    nlohmann::json previewSkip(const task::StatusSnapshot& status) override;
    nlohmann::json previewResumeFrom(const task::StatusSnapshot& status, const task::ResumeTarget& target) override;
    task::SkipEvidence saveSkippedRows(const task::StatusSnapshot& status) override;
    // A whole task's status names no one source: its resume-from is refused by the task itself, so nothing is
    // checked or saved for it here.
    std::string resumeTargetProblem(const task::StatusSnapshot& status, const task::ResumeTarget& target) override;
    task::SkipEvidence saveResumeFromSkippedRows(const task::StatusSnapshot& status,
                                                 const task::ResumeTarget& target) override;

private:
    // Throws Error when the status is not one subtask's (the whole task's names several sources).
    control::CommandPreviewer& previewerFor(const task::StatusSnapshot& status) const;

    std::map<std::string, std::unique_ptr<control::CommandPreviewer>> bySource_;
};

}  // namespace syncscope::multisource
