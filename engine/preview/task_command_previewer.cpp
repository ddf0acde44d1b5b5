#include "engine/preview/task_command_previewer.h"

#include "engine/common/error.h"
#include "engine/preview/preview_json.h"
#include "engine/preview/replay_sql_file.h"
#include "engine/preview/task_window_preview.h"
#include "engine/task/resume_point_writer.h"

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

std::string TaskCommandPreviewer::resumeTargetProblem(const task::StatusSnapshot&, const task::ResumeTarget& target) {
    try {
        checkResumeTarget(setup_, target);
    } catch (const RefusedResumeTarget& e) {
        return e.what();
    }
    return {};
}

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

task::SkipEvidence TaskCommandPreviewer::saveResumeFromSkippedRows(const task::StatusSnapshot& status,
                                                                   const task::ResumeTarget& target) {
    const task::PointView& persisted = status.globalPersisted;
    if (!persisted.known()) {
        return {};  // no checkpoint yet: nothing the task had reached is passed over
    }
    if (!task::validateResumeTarget(target).empty() || !task::checkResumeTargetUpstream(setup_, target).empty()) {
        return {};  // the task refuses the target itself, saying why
    }
    task::ResumeTarget located = locateResumeTarget(setup_, target);
    if (located.file == persisted.file && located.pos == persisted.pos) {
        return {};
    }
    ResumeWindow window = resumeWindowOf(persisted, located);
    if (!window.skips) {
        return {};  // going back: the window is applied again, nothing is left out
    }
    verify::WindowPreview skipped = preview::previewResumeFrom(setup_, window);
    task::SkipEvidence evidence;
    evidence.replaySqlFile =
        saveReplaySql(skipped, sqlFolder_, setup_.taskName,
                      "resume-from " + located.file + ":" + std::to_string(located.pos) +
                          (target.gtid.empty() ? "" : " (gtid " + target.gtid + ")") +
                          ", skipping the transactions after the persisted global point " + persisted.text());
    evidence.preview = previewCounts(skipped);
    return evidence;
}

}  // namespace syncscope::preview
