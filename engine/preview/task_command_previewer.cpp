#include "engine/preview/task_command_previewer.h"

#include "engine/common/error.h"
#include "engine/preview/preview_json.h"
#include "engine/preview/replay_sql_file.h"
#include "engine/preview/task_window_preview.h"

namespace syncscope::preview {

namespace {

const task::PointView& failedPosition(const task::StatusSnapshot& status) {
    if (!status.failedEvent) {
        throw Error(std::string("the task has no failed event to skip (stage ") + task::stageName(status.stage) + ")");
    }
    return status.failedEvent->position;
}

}  // namespace

TaskCommandPreviewer::TaskCommandPreviewer(task::TaskSetup setup, std::string sqlFolder)
    : setup_(std::move(setup)), sqlFolder_(std::move(sqlFolder)) {}

nlohmann::json TaskCommandPreviewer::previewSkip(const task::StatusSnapshot& status) {
    nlohmann::json out = previewJson(preview::previewSkip(setup_, failedPosition(status)));
    out["skips"] = true;
    return out;
}

nlohmann::json TaskCommandPreviewer::previewResumeFrom(const task::StatusSnapshot& status,
                                                       const task::ResumeTarget& target) {
    ResumeWindow window = resumeWindowOf(status.globalPersisted, target);
    nlohmann::json out = previewJson(preview::previewResumeFrom(setup_, window));
    out["skips"] = window.skips;  // false: the window is applied again, in safe mode
    out["persisted_global_point"] = status.globalPersisted.text();
    return out;
}

task::SkipEvidence TaskCommandPreviewer::saveSkippedRows(const task::StatusSnapshot& status) {
    const task::PointView& failed = failedPosition(status);
    verify::WindowPreview window = preview::previewSkip(setup_, failed);
    task::SkipEvidence evidence;
    evidence.replaySqlFile = saveReplaySql(window, sqlFolder_, setup_.taskName,
                                           "skip of the failed transaction (failed event at " + failed.text() + ")");
    evidence.preview = previewCounts(window);
    return evidence;
}

}  // namespace syncscope::preview
