#include "engine/multisource/source_subtask.h"

#include <spdlog/spdlog.h>

namespace syncscope::multisource {

SourceSubtask::SourceSubtask(std::shared_ptr<task::Task> task, std::shared_ptr<PausedSources> paused)
    : task_(std::move(task)), paused_(std::move(paused)), wait_(paused_, task_->setup().taskName) {}

SourceSubtask::~SourceSubtask() {
    {
        std::lock_guard commands(commandMutex_);
        stoppedBeforeStart_ = true;  // a wait ending now does not start the Task
    }
    wait_.cancel();
}

std::shared_ptr<const task::StatusSnapshot> SourceSubtask::status() const {
    auto current = task_->status();
    const PauseTableWait::State waiting = wait_.state();
    if (waiting.waiting || (stoppedBeforeStart_ && current->stage == task::Stage::New)) {
        return statusBeforeStart(*current, waiting);
    }
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
            (fromStart ? describePausedCheckpoint(*pausedCheckpoint_, task_->setup()) : current->stageReason) +
            (toldAtStart_.empty() ? std::string() : "; at start, once the downstream answered: " + toldAtStart_);
        taskStatus_ = current;
        status_ = std::move(annotated);
    }
    return status_;
}

std::shared_ptr<const task::StatusSnapshot> SourceSubtask::statusBeforeStart(
    const task::StatusSnapshot& current, const PauseTableWait::State& waiting) const {
    auto shown = std::make_shared<task::StatusSnapshot>(current);
    const std::string since = paused_->pausedSince(sourceId());
    const std::string notRead =
        waiting.problem.empty() ? std::string("they are being read") : "they cannot be read yet: " + waiting.problem;
    if (!waiting.waiting) {
        shown->stage = task::Stage::Stopped;
        shown->stageReason = "stopped before it started: the pauses kept in the downstream were never read";
    } else if (!since.empty()) {
        shown->stage = task::Stage::Paused;
        shown->stageReason = "paused by the DBA since " + since + " (remembered in " + paused_->file() +
                             "); the pauses kept in the downstream decide once read: " + notRead;
    } else if (waiting.problem.empty()) {
        shown->stage = task::Stage::Running;
        shown->stageReason = "starting: reading the pauses kept in the downstream";
    } else {
        shown->stage = task::Stage::Error;
        shown->stageReason = "retryable: " + waiting.problem + "; retrying (attempt " +
                             std::to_string(waiting.attempts) + "): source " + sourceId() +
                             " starts once the pauses kept in the downstream are read";
        shown->lastError = waiting.problem;
    }
    return shown;
}

task::CommandResult SourceSubtask::start() {
    std::lock_guard commands(commandMutex_);
    if (wait_.state().waiting) {
        return {false, "source " + sourceId() +
                           " is starting already: it runs once the pauses kept in the downstream are read"};
    }
    stoppedBeforeStart_ = false;
    if (!paused_->tableMayAnswerLater()) {
        return startNow("");
    }
    wait_.begin([this](const std::string& told) { startOnceRead(told); });
    const std::string since = paused_->pausedSince(sourceId());
    const std::string why =
        "source " + sourceId() + " starts once the pauses kept in the downstream are read (" + paused_->tableProblem() +
        "); " +
        (paused_->file().empty()
             ? std::string("there is no copy beside an audit log")
             : "the copy in " + paused_->file() + (since.empty() ? " names no pause" : " says paused since " + since)) +
        ", and is not taken alone";
    spdlog::warn("task {}: {}", task_->setup().taskName, why);
    return {true, why};
}

void SourceSubtask::startOnceRead(const std::string& told) {
    std::lock_guard commands(commandMutex_);
    if (stoppedBeforeStart_ || task_->stage() != task::Stage::New) {
        return;  // stopped meanwhile, or started by a start() that came after the read
    }
    const task::CommandResult started = startNow(told);
    if (!started.accepted) {
        spdlog::error("task {}: source {} did not start: {}", task_->setup().taskName, sourceId(), started.reason);
    }
}

task::CommandResult SourceSubtask::startNow(const std::string& told) {
    if (!told.empty()) {
        spdlog::info("task {}: the downstream answered: {}", task_->setup().taskName, told);
        std::lock_guard lock(statusMutex_);
        toldAtStart_ = told;
        taskStatus_.reset();
    }
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

task::CommandResult SourceSubtask::stop() {
    bool wasWaiting = false;
    {
        std::lock_guard commands(commandMutex_);
        wasWaiting = wait_.state().waiting;
        stoppedBeforeStart_ = wasWaiting;
    }
    wait_.cancel();  // a wait that ended just now has started the Task by the time this returns
    if (!wasWaiting) {
        return task_->stop();
    }
    spdlog::info("task {}: source {} stopped before it started (the pauses kept in the downstream were not read)",
                 task_->setup().taskName, sourceId());
    return {true, "stopped before it started: the pauses kept in the downstream were not read"};
}

task::CommandResult SourceSubtask::pause() {
    if (wait_.state().waiting) {
        task::CommandResult answer{
            true, "paused: source " + sourceId() + " starts paused once the pauses kept in the downstream are read"};
        try {
            paused_->remember(sourceId());
        } catch (const std::exception& e) {
            answer.reason += "; but " + std::string(e.what());  // names where the pause is kept meanwhile
        }
        return answer;
    }
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
    if (const PauseTableWait::State waiting = wait_.state(); waiting.waiting) {
        // A pause kept in the downstream is not known yet: forgetting the copy's would not undo it.
        return {false, "cannot resume source " + sourceId() +
                           " yet: it starts by itself once the pauses kept in the downstream are read (" +
                           (waiting.problem.empty() ? std::string("reading them") : waiting.problem) +
                           "); resume it then if it starts paused"};
    }
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
