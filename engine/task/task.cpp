#include "engine/task/task.h"

#include "engine/task/shard_ddl_locks.h"

#include <spdlog/spdlog.h>

#include "engine/binlog/location.h"
#include "engine/common/thread_priority.h"
#include "engine/task/resume_point_writer.h"
#include "engine/task/upstream_catch_up.h"

namespace syncscope::task {

namespace {

constexpr std::chrono::milliseconds kPublishInterval{100};

}  // namespace

Task::Task(TaskSetup setup)
    : setup_(std::move(setup)), audit_(setup_.auditLogPath), upstreamWatch_(setup_.upstream), loadStage_(setup_) {
    publisherThread_ = std::thread(&Task::publishLoop, this);
}

Task::~Task() {
    stop();
    waitUntilStopped();
    publishing_ = false;
    publisherThread_.join();
}

Stage Task::stage() const {
    std::lock_guard lock(mutex_);
    return lifecycle_.stage;
}

bool Task::waitingForDba() const {
    std::lock_guard lock(mutex_);
    return lifecycle_.stage == Stage::Error && lifecycle_.wanted == Wanted::WaitForDba;
}

CommandResult Task::unlockShardDdl(const std::string& target, bool preview) {
    if (!setup_.shardLocks) {
        return TaskControl::unlockShardDdl(target, preview);
    }
    return setup_.shardLocks->unlock(target, preview);
}

void Task::audit(const std::string& action, const std::string& after, nlohmann::json details) {
    AuditEntry entry;
    entry.action = action;
    entry.task = setup_.taskName;
    entry.sourceId = setup_.sourceId;
    const binlog::Location before = tracker_.globalPersisted();
    entry.positionBefore = before.isEmpty() ? std::string() : before.toString();  // no checkpoint read yet
    entry.positionAfter = after;
    entry.details = std::move(details);
    try {
        audit_.append(entry);
    } catch (const std::exception& e) {
        spdlog::error("{}", e.what());
        notices_.push({Clock::now(), stage(), e.what(), true});
    }
}

CommandResult Task::carryOut(const char* action, CommandDecision decision, std::unique_lock<std::mutex>& lock) {
    if (!decision.result.accepted) {
        return decision.result;
    }
    if (decision.resetRetries) {
        retry_.reset();
    }
    if (decision.interrupt) {
        interruptSession();
    }
    if (decision.startThread) {
        startThread(lock);
    }
    if (decision.wake) {
        wake_.notify_all();
    }
    if (action != nullptr) {
        lock.unlock();
        audit(action, decision.auditAfter, std::move(decision.auditDetails));
        lock.lock();
    }
    return decision.result;
}

// The stage already says Running: a second start is refused while the thread that ended is joined.
void Task::startThread(std::unique_lock<std::mutex>& lock) {
    if (thread_.joinable()) {
        lock.unlock();
        thread_.join();
        lock.lock();
    }
    interrupt_ = false;
    thread_ = std::thread(&Task::threadMain, this);
}

CommandResult Task::start() {
    std::unique_lock lock(mutex_);
    return carryOut("start", TaskCommands::start(lifecycle_, tracker_.globalPersisted()), lock);
}

CommandResult Task::pause() {
    std::unique_lock lock(mutex_);
    return carryOut("pause", TaskCommands::pause(lifecycle_, tracker_.globalPersisted()), lock);
}

CommandResult Task::resume() {
    std::unique_lock lock(mutex_);
    return carryOut("resume", TaskCommands::resume(lifecycle_, tracker_.globalPersisted(), thread_.joinable()), lock);
}

CommandResult Task::stop() {
    std::unique_lock lock(mutex_);
    return carryOut("stop", TaskCommands::stop(lifecycle_, tracker_.globalPersisted(), thread_.joinable()), lock);
}

CommandResult Task::skipFailedEvent(const SkipEvidence& evidence) {
    std::unique_lock lock(mutex_);
    return carryOut("skip", TaskCommands::skip(lifecycle_, evidence), lock);
}

CommandResult Task::resumeFrom(const ResumeTarget& target) {
    return resumeFrom(target, SkipEvidence{});
}

CommandResult Task::resumeFrom(const ResumeTarget& target, const SkipEvidence& evidence) {
    {
        std::lock_guard lock(mutex_);
        if (!TaskCommands::takesResumeFrom(lifecycle_)) {
            return TaskCommands::refuse(lifecycle_, "resume from a position");
        }
    }
    // Checked before anything is written, and without the state lock (the status must not wait on it).
    std::string problem = validateResumeTarget(target);
    if (problem.empty()) {
        problem = checkResumeTargetUpstream(setup_, target);
    }
    if (!problem.empty()) {
        return {false, "resume-from " + describeResumeTarget(target) + " refused, nothing changed: " + problem};
    }
    std::unique_lock lock(mutex_);
    // Audited when the next session writes the point (applyPendingResumeFrom), with the point it replaces.
    return carryOut(nullptr, TaskCommands::resumeFrom(lifecycle_, target, evidence), lock);
}

CommandResult Task::stopAt(const std::string& point) {
    StopAtDecision decision = TaskCommands::stopAt(point, tracker_.globalInMemory());
    if (decision.result.accepted) {
        setup_.stopPoint->set(std::move(decision.point));
        audit("until", decision.auditAfter);
    }
    return decision.result;
}

void Task::waitUntilStopped() {
    std::unique_lock lock(mutex_);
    if (thread_.joinable() && lifecycle_.wanted != Wanted::Stopped) {
        wake_.wait(lock, [this] { return lifecycle_.wanted == Wanted::Stopped; });
    }
    if (thread_.joinable()) {
        lock.unlock();
        thread_.join();
    }
}

void Task::interruptSession() {
    interrupt_ = true;
    if (session_) {
        session_->cancel();
    }
}

void Task::setStage(Stage stage, const std::string& reason, bool isError) {
    // Called with mutex_ held.
    bool changed = stage != lifecycle_.stage || reason != lifecycle_.stageReason;
    lifecycle_.stage = stage;
    lifecycle_.stageReason = reason;
    if (changed) {
        if (isError) {
            spdlog::error("task {}: {}: {}", setup_.taskName, stageName(stage), reason);
        } else {
            spdlog::info("task {}: {}{}", setup_.taskName, stageName(stage), reason.empty() ? "" : ": " + reason);
        }
        notices_.push({Clock::now(), stage, reason, isError});
    }
}

void Task::threadMain() {
    applyEngineThreadPriority();
    std::unique_lock lock(mutex_);
    while (true) {
        switch (lifecycle_.wanted) {
            case Wanted::Stopped:
                setStage(Stage::Stopped, loadStage_.stopsAfterLoad() && loadStage_.finished()
                                             ? loadStage_.summary()
                                             : "stopped; checkpoint at " + tracker_.globalPersisted().toString());
                wake_.notify_all();
                return;
            case Wanted::Paused:
                setStage(Stage::Paused, (lifecycle_.pausedAt.empty() ? std::string("paused by the DBA")
                                                                     : "reached " + lifecycle_.pausedAt) +
                                            "; checkpoint at " + tracker_.globalPersisted().toString());
                wake_.wait(lock, [this] { return lifecycle_.wanted != Wanted::Paused; });
                break;
            case Wanted::WaitForDba:
                wake_.wait(lock, [this] { return lifecycle_.wanted != Wanted::WaitForDba; });
                break;
            case Wanted::Running:
                runOneSession(lock);
                break;
        }
    }
}

// The pending resume-from first, then the load stage (task-mode all/full) until it has finished, then a
// sync session. Called and returns with `lock` held.
void Task::runOneSession(std::unique_lock<std::mutex>& lock) {
    interrupt_ = false;
    // "loading the snapshot" only once the load stage knows a load runs (a resumed task's load is done).
    setStage(Stage::Running, "");
    std::optional<SkipRequest> skip = std::exchange(lifecycle_.pendingSkip, std::nullopt);
    lock.unlock();

    SessionOutcome outcome;
    binlog::Location persistedBefore = tracker_.globalPersisted();
    if (std::string problem = applyPendingResumeFrom(); !problem.empty()) {
        outcome.kind = SessionOutcome::Kind::Failed;
        outcome.message = problem;
    } else if (std::optional<SessionOutcome> loading = loadStage_.run(interrupt_, [this] {
                   std::lock_guard copying(mutex_);
                   setStage(Stage::Running, "loading the snapshot");
               })) {
        outcome = *loading;  // the load stage did not finish (interrupted or failed)
    } else if (loadStage_.stopsAfterLoad()) {
        lock.lock();
        if (lifecycle_.wanted == Wanted::Running) {
            lifecycle_.wanted = Wanted::Stopped;  // task-mode full: done
        }
        lock.unlock();
    } else {
        outcome = runSyncSession(std::move(skip), lock);
    }
    tracker_.rollbackToPersisted();
    lock.lock();
    if (sessionEnded(outcome, persistedBefore)) {
        waitBeforeRetry(lock);
    }
}

// Called and returns without the lock.
SessionOutcome Task::runSyncSession(std::optional<SkipRequest> skip, std::unique_lock<std::mutex>& lock) {
    auto session = std::make_shared<SyncSession>(setup_, tracker_);
    lock.lock();
    if (loadStage_.enabled()) {
        setStage(Stage::Running, "");  // the load is done: no longer "loading the snapshot"
    }
    session_ = session;
    bool interruptedEarly = lifecycle_.wanted != Wanted::Running;
    lock.unlock();
    SessionOutcome outcome;
    if (!interruptedEarly) {
        outcome = session->run(skip, interrupt_);
    }
    SessionLiveView last = session->live();
    lock.lock();
    session_.reset();
    if (!interruptedEarly) {
        endedSession_ = EndedSessionView{last.read, last.oldestUnappliedTimestamp};
    }
    totals_.add(last);  // counters run over the task's life (Prometheus counters never go back)
    lock.unlock();
    return outcome;
}

// What comes next after a session (or the load, or a resume-from that failed): wanted says it for an
// interruption; a retryable failure runs again after a delay (true); any other waits for the DBA. With the
// lock held.
bool Task::sessionEnded(const SessionOutcome& outcome, const binlog::Location& persistedBefore) {
    lifecycle_.pausedAt.clear();
    if (outcome.kind == SessionOutcome::Kind::Interrupted) {
        lifecycle_.lastFailure.reset();
        if (!outcome.resync.empty()) {
            spdlog::info("task {}: {}", setup_.taskName, outcome.resync);
        }
        if (!outcome.stopPointReached.empty() && lifecycle_.wanted == Wanted::Running) {
            lifecycle_.pausedAt = outcome.stopPointReached;  // one-shot, as START SLAVE UNTIL
            setup_.stopPoint->set(std::nullopt);
            lifecycle_.wanted = Wanted::Paused;
        }
        return false;
    }
    lifecycle_.lastFailure = outcome;
    if (!(tracker_.globalPersisted() == persistedBefore)) {
        retry_.reset();  // the session got somewhere: this is a new outage, not the same one again
    }
    if (outcome.retryable && lifecycle_.wanted == Wanted::Running) {
        setStage(Stage::Error, "retryable: " + outcome.message + "; retrying", true);
        return true;
    }
    setStage(Stage::Error, outcome.message, true);
    if (lifecycle_.wanted == Wanted::Running) {
        lifecycle_.wanted = Wanted::WaitForDba;
    }
    return false;
}

void Task::waitBeforeRetry(std::unique_lock<std::mutex>& lock) {
    auto delay = retry_.nextDelay();
    spdlog::warn("task {}: resuming by itself in {} ms (attempt {})", setup_.taskName, delay.count(),
                 retry_.attempts());
    wake_.wait_for(lock, delay, [this] { return lifecycle_.wanted != Wanted::Running; });
}

std::string Task::applyPendingResumeFrom() {
    if (setup_.removeMeta) {
        try {
            audit("remove-meta", "(removed)");
            removeTaskMeta(setup_);
            spdlog::warn("task {}: removed the checkpoint rows of source {} (--remove-meta)", setup_.taskName,
                         setup_.sourceId);
            setup_.removeMeta = false;  // once: later sessions resume from what they persist
        } catch (const std::exception& e) {
            return std::string("--remove-meta failed: ") + e.what();
        }
    }
    std::optional<ResumeTarget> target;
    SkipEvidence evidence;
    {
        std::lock_guard lock(mutex_);
        target = std::exchange(lifecycle_.pendingResumeFrom, std::nullopt);
        evidence = std::exchange(lifecycle_.pendingResumeEvidence, SkipEvidence{});
    }
    if (!target) {
        return {};
    }
    try {
        binlog::Location previous = writeResumePoint(setup_, *target);
        // The undo: resume-from this point again (the table points it had are not restored: a resume from
        // it replays their events in safe mode, which leaves the same rows).
        nlohmann::json details = {{"previous_global_point", previous.toString()},
                                  {"undo", "resume-from " + previous.toString()}};
        if (!evidence.replaySqlFile.empty()) {
            details["replay_sql_file"] = evidence.replaySqlFile;  // the rows skipped going forward, replayable
        }
        if (!evidence.preview.empty()) {
            details["preview"] = evidence.preview;
        }
        audit("resume-from", describeResumeTarget(*target), std::move(details));
        setup_.appliedBeforeResumeFrom = previous;  // read by the next session only, on this thread
        std::lock_guard lock(mutex_);
        previousGlobalPoint_ = previous;
        return {};
    } catch (const std::exception& e) {
        return "resume-from " + describeResumeTarget(*target) + " failed: " + e.what();
    }
}

void Task::publishLoop() {
    applyEngineThreadPriority();
    while (publishing_) {
        publisher_.publish(buildSnapshot());
        std::this_thread::sleep_for(kPublishInterval);
    }
}

std::shared_ptr<const StatusSnapshot> Task::buildSnapshot() {
    UpstreamState upstream = upstreamWatch_.latest();
    TaskStateView state;
    std::shared_ptr<SyncSession> session;
    {
        std::lock_guard lock(mutex_);
        state.stage = lifecycle_.stage;
        state.stageReason = lifecycle_.stageReason;
        if (auto point = setup_.stopPoint->get()) {
            state.stopPoint = point->describe();
        }
        if (lifecycle_.lastFailure) {
            state.failedEvent = lifecycle_.lastFailure->failedEvent;
            state.lastError = lifecycle_.lastFailure->message;
        }
        session = session_;
        state.sessionRunning = session != nullptr;
        state.ended = endedSession_;
        state.totals = totals_;
        state.previousGlobalPoint = previousGlobalPoint_;
    }
    checkpoint::TrackerView points = tracker_.view();
    SessionLiveView live;
    if (session) {
        live = session->live();
    }
    return composer_.compose(std::move(state), points, live, std::move(upstream), loadStage_.progress());
}

}  // namespace syncscope::task
