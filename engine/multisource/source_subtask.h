// One source's subtask of a task with several sources, as the front ends and the control API command it: the
// engine's Task of that source, with its pause remembered (paused_sources.h). A pause of the source is written
// down at once, a resume forgets it, and a start of a remembered source pauses it again right away, its status
// saying since when and why, so that a restart never runs a source the DBA paused. Such a source's persisted
// checkpoint is read at that start (paused_checkpoint.h), so its view has its points before it is resumed.
// When the downstream did not answer the pauses kept there at start (a task with one source, which starts anyway),
// the Task starts only once they are read (pause_table_wait.h); meanwhile the status says so.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

#include "engine/multisource/pause_table_wait.h"
#include "engine/multisource/paused_checkpoint.h"
#include "engine/multisource/paused_sources.h"
#include "engine/task/evidenced_resume_from.h"
#include "engine/task/task.h"

namespace syncscope::multisource {

class SourceSubtask final : public task::TaskControl, public task::EvidencedResumeFrom {
public:
    SourceSubtask(std::shared_ptr<task::Task> task, std::shared_ptr<PausedSources> paused);
    ~SourceSubtask() override;
    SourceSubtask(const SourceSubtask&) = delete;
    SourceSubtask& operator=(const SourceSubtask&) = delete;

    std::shared_ptr<const task::StatusSnapshot> status() const override;
    std::vector<task::Notice> drainNotices(size_t maxCount) override { return task_->drainNotices(maxCount); }
    // Starts the source; a source remembered as paused is paused again at once (audited as a pause) and its
    // persisted checkpoint is read for its status. When the pauses kept in the downstream could not be read yet
    // (and may be later), the Task starts once they are read, and the answer says so.
    task::CommandResult start() override;
    // While waiting for the downstream's pauses: the pause is remembered, and the source starts paused.
    task::CommandResult pause() override;
    // Refused while waiting for the downstream's pauses (the pause kept there is not known yet).
    task::CommandResult resume() override;
    // While waiting for the downstream's pauses: the waiting ends, and the Task is never started.
    task::CommandResult stop() override;
    using TaskControl::skipFailedEvent;
    task::CommandResult skipFailedEvent(const task::SkipEvidence& evidence) override {
        return task_->skipFailedEvent(evidence);
    }
    // A resume from a chosen point runs the source: its pause is forgotten as by resume().
    task::CommandResult resumeFrom(const task::ResumeTarget& target) override {
        return forgetPauseOnceRunning(task_->resumeFrom(target));
    }
    task::CommandResult resumeFrom(const task::ResumeTarget& target, const task::SkipEvidence& evidence) override {
        return forgetPauseOnceRunning(task_->resumeFrom(target, evidence));
    }
    task::CommandResult stopAt(const std::string& point) override { return task_->stopAt(point); }
    task::CommandResult unlockShardDdl(const std::string& target, bool preview) override {
        return task_->unlockShardDdl(target, preview);
    }

    const std::string& sourceId() const { return task_->setup().sourceId; }
    const std::shared_ptr<task::Task>& task() const { return task_; }
    bool pauseRemembered() const { return paused_->isPaused(sourceId()); }
    bool waitingForPauses() const { return wait_.state().waiting; }

private:
    // After an accepted resume or resume-from: the pause is no longer remembered.
    task::CommandResult forgetPauseOnceRunning(task::CommandResult answer);
    // Starts the Task (paused again when remembered); `told`: which pauses were used, for the log. With
    // commandMutex_ held.
    task::CommandResult startNow(const std::string& told);
    void startOnceRead(const std::string& told);  // the wait's end, on its thread
    // The status while the Task waits for the downstream's pauses, or was stopped before it started.
    std::shared_ptr<const task::StatusSnapshot> statusBeforeStart(const task::StatusSnapshot& current,
                                                                  const PauseTableWait::State& waiting) const;

    std::shared_ptr<task::Task> task_;
    std::shared_ptr<PausedSources> paused_;
    mutable std::mutex statusMutex_;
    std::optional<PausedCheckpoint> pausedCheckpoint_;                // read at a start that kept the source paused
    mutable std::shared_ptr<const task::StatusSnapshot> taskStatus_;  // the snapshot `status_` was made from
    mutable std::shared_ptr<const task::StatusSnapshot> status_;
    std::string toldAtStart_;  // which pauses a start that waited for the downstream used (statusMutex_)
    std::mutex commandMutex_;  // start and stop, against the wait's end starting the Task
    std::atomic<bool> stoppedBeforeStart_{false};
    PauseTableWait wait_;  // last: its thread ends before the rest goes
};

}  // namespace syncscope::multisource
