#include "engine/multisource/subtask_previewer.h"

#include "engine/preview/task_command_previewer.h"

namespace syncscope::multisource {

SubtaskPreviewer::SubtaskPreviewer(const std::vector<task::TaskSetup>& subtasks, const std::string& sqlFolder) {
    for (const task::TaskSetup& setup : subtasks) {
        bySource_[setup.sourceId] = std::make_unique<preview::TaskCommandPreviewer>(setup, sqlFolder);
    }
}

control::CommandPreviewer& SubtaskPreviewer::previewerFor(const task::StatusSnapshot& status) const {
    auto found = bySource_.find(status.sourceId);
    if (found == bySource_.end()) {
        throw Error("task " + status.taskName + ": a preview reads one source's binlog; name the source (?source=ID)");
    }
    return *found->second;
}

nlohmann::json SubtaskPreviewer::previewSkip(const task::StatusSnapshot& status) {
    return previewerFor(status).previewSkip(status);
}

nlohmann::json SubtaskPreviewer::previewResumeFrom(const task::StatusSnapshot& status,
                                                   const task::ResumeTarget& target) {
    return previewerFor(status).previewResumeFrom(status, target);
}

std::string SubtaskPreviewer::resumeTargetProblem(const task::StatusSnapshot& status,
                                                  const task::ResumeTarget& target) {
    return bySource_.contains(status.sourceId) ? previewerFor(status).resumeTargetProblem(status, target)
                                               : std::string();
}

task::SkipEvidence SubtaskPreviewer::saveResumeFromSkippedRows(const task::StatusSnapshot& status,
                                                               const task::ResumeTarget& target) {
    return bySource_.contains(status.sourceId) ? previewerFor(status).saveResumeFromSkippedRows(status, target)
                                               : task::SkipEvidence{};
}

task::SkipEvidence SubtaskPreviewer::saveSkippedRows(const task::StatusSnapshot& status) {
    return previewerFor(status).saveSkippedRows(status);
}

}  // namespace syncscope::multisource
