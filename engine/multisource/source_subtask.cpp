#include "engine/multisource/source_subtask.h"

#include <spdlog/spdlog.h>

namespace syncscope::multisource {

SourceSubtask::SourceSubtask(std::shared_ptr<task::Task> task, std::shared_ptr<PausedSources> paused)
    : task_(std::move(task)), paused_(std::move(paused)) {}

std::shared_ptr<const task::StatusSnapshot> SourceSubtask::status() const {
    auto current = task_->status();
    const std::string since = paused_->pausedSince(sourceId());
    if (since.empty() || current->stage != task::Stage::Paused) {
        return current;
    }
    std::lock_guard lock(statusMutex_);
    if (current != taskStatus_) {
        // Until the Task has read its checkpoint (its first session), the one read at start is shown.
        const bool fromStart = pausedCheckpoint_ && !current->globalPersisted.known();
        auto annotated = fromStart ? withPersistedPoints(*current, pausedCheckpoint_->persisted)
                                   : std::make_shared<task::StatusSnapshot>(*current);
        annotated->stageReason =
            "paused by the DBA since " + since + " (remembered in " + paused_->where() +
            ": a restart keeps this source paused until it is resumed); " +
            (fromStart ? describePausedCheckpoint(*pausedCheckpoint_, task_->setup()) : current->stageReason);
        taskStatus_ = current;
        status_ = std::move(annotated);
    }
    return status_;
}

task::CommandResult SourceSubtask::start() {
    task::CommandResult started = task_->start();
    if (!started.accepted || !pauseRemembered()) {
        return started;
    }
    task::CommandResult paused = task_->pause();
    PausedCheckpoint checkpoint = readPausedCheckpoint(task_->setup());
    const std::string why = "source " + sourceId() + " stays paused: paused by the DBA since " +
                            paused_->pausedSince(sourceId()) + " (remembered in " + paused_->where() + "); " +
                            describePausedCheckpoint(checkpoint, task_->setup()) + "; resume it to run it";
    {
        std::lock_guard lock(statusMutex_);
        pausedCheckpoint_ = std::move(checkpoint);
        taskStatus_.reset();  // the next status() shows the points
    }
    spdlog::info("task {}: {}", task_->setup().taskName, why);
    return {started.accepted, paused.accepted ? why : started.reason + "; " + why + ", but: " + paused.reason};
}

task::CommandResult SourceSubtask::pause() {
    task::CommandResult answer = task_->pause();
    if (answer.accepted) {
        try {
            paused_->remember(sourceId());
        } catch (const std::exception& e) {
            answer.reason += "; but " + std::string(e.what());  // names what failed and where the pause still is
        }
    }
    return answer;
}

task::CommandResult SourceSubtask::resume() {
    return forgetPauseOnceRunning(task_->resume());
}

task::CommandResult SourceSubtask::forgetPauseOnceRunning(task::CommandResult answer) {
    if (answer.accepted) {
        {
            std::lock_guard lock(statusMutex_);
            pausedCheckpoint_.reset();  // the Task reads its own checkpoint now
            taskStatus_.reset();
        }
        try {
            paused_->forget(sourceId());
        } catch (const std::exception& e) {
            answer.reason += "; but " + std::string(e.what());
        }
    }
    return answer;
}

}  // namespace syncscope::multisource
