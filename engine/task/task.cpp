#include "engine/task/task.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>
#include <random>

#include "engine/binlog/location.h"
#include "engine/common/thread_priority.h"
#include "engine/task/resume_point_writer.h"
#include "engine/task/sync_pipeline.h"
#include "engine/task/upstream_catch_up.h"

namespace syncscope::task {

namespace {

constexpr std::chrono::milliseconds kPublishInterval{100};
constexpr std::chrono::seconds kFirstRetryDelay{1};
constexpr std::chrono::seconds kMaxRetryDelay{60};
constexpr double kRetryJitter = 0.2;  // +-20%

std::chrono::milliseconds retryDelay(int attempt) {
    constexpr int kMaxDoublings = 6;
    std::chrono::milliseconds delay = kFirstRetryDelay * (int64_t{1} << std::min(attempt, kMaxDoublings));
    delay = std::min<std::chrono::milliseconds>(delay, kMaxRetryDelay);
    static thread_local std::mt19937 random{std::random_device{}()};
    std::uniform_real_distribution<double> jitter(1.0 - kRetryJitter, 1.0 + kRetryJitter);
    return std::chrono::milliseconds(static_cast<int64_t>(static_cast<double>(delay.count()) * jitter(random)));
}

nlohmann::json failedEventJson(const FailedEvent& failed) {
    nlohmann::json rows = nlohmann::json::array();
    size_t count = std::max(failed.before.size(), failed.after.size());
    for (size_t i = 0; i < count; ++i) {
        auto image = [&](const std::vector<RowImageView>& images) -> nlohmann::json {
            if (i >= images.size()) {
                return nullptr;
            }
            nlohmann::json values = nlohmann::json::array();
            for (const auto& value : images[i].values) {
                values.push_back(value ? nlohmann::json(*value) : nlohmann::json(nullptr));
            }
            return values;
        };
        rows.push_back({{"before", image(failed.before)}, {"after", image(failed.after)}});
    }
    return {{"position", failed.position.text()},
            {"gtid", failed.position.gtid},
            {"schema", failed.schema},
            {"table", failed.table},
            {"operation", failed.operation},
            {"columns", failed.columns},
            {"rows", rows},
            {"sql", failed.sql},
            {"error_code", failed.errorCode},
            {"error_message", failed.errorMessage}};
}

// What a Running task shows between a pause or stop and its end: a large transaction can take the grace.
std::string finishingTransactionNote(const char* what) {
    return std::string(what) + ": the transaction being read is applied to its end first (at most " +
           std::to_string(std::chrono::duration_cast<std::chrono::seconds>(kFinishTransactionGrace).count()) +
           " s), then what has committed is flushed";
}

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
    return stage_;
}

bool Task::waitingForDba() const {
    std::lock_guard lock(mutex_);
    return stage_ == Stage::Error && wanted_ == Wanted::WaitForDba;
}

CommandResult Task::refuse(const std::string& command) const {
    return {false, "cannot " + command + " while the task is " + stageName(stage_) +
                       (stageReason_.empty() ? std::string() : " (" + stageReason_ + ")")};
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
        notices_.push({Clock::now(), stage_, e.what(), true});
    }
}

CommandResult Task::start() {
    std::unique_lock lock(mutex_);
    if (stage_ != Stage::New && stage_ != Stage::Stopped) {
        return refuse("start");
    }
    if (thread_.joinable()) {
        lock.unlock();
        thread_.join();
        lock.lock();
    }
    wanted_ = Wanted::Running;
    interrupt_ = false;
    stage_ = Stage::Running;
    stageReason_ = "starting";
    thread_ = std::thread(&Task::threadMain, this);
    lock.unlock();
    // Every action is audited, a start too: "after" is where it starts from as far as known now (the
    // checkpoint is read by the session; a first start has none).
    const binlog::Location from = tracker_.globalPersisted();
    audit("start", from.isEmpty() ? "from the checkpoint table, or the task's start point" : "from " + from.toString());
    return {true, "starting"};
}

CommandResult Task::pause() {
    std::unique_lock lock(mutex_);
    if (stage_ != Stage::Running && stage_ != Stage::Error) {
        return refuse("pause");
    }
    wanted_ = Wanted::Paused;
    if (stage_ == Stage::Running) {
        stageReason_ = finishingTransactionNote("pausing");
    }
    interruptSession();
    wake_.notify_all();
    lock.unlock();  // the audit line is fsynced without the state lock: the status never waits on a disk
    audit("pause", tracker_.globalPersisted().toString());
    return {true, "pausing: flushing what has committed"};
}

CommandResult Task::resume() {
    std::unique_lock lock(mutex_);
    if (stage_ != Stage::Paused && stage_ != Stage::Error) {
        return refuse("resume");
    }
    if (!thread_.joinable()) {
        return refuse("resume");
    }
    wanted_ = Wanted::Running;
    retryCount_ = 0;
    wake_.notify_all();
    lock.unlock();
    audit("resume", tracker_.globalPersisted().toString());
    return {true, "resuming from the persisted global point " + tracker_.globalPersisted().toString()};
}

CommandResult Task::stop() {
    std::unique_lock lock(mutex_);
    if (!thread_.joinable() || stage_ == Stage::Stopped || stage_ == Stage::New) {
        return refuse("stop");
    }
    wanted_ = Wanted::Stopped;
    if (stage_ == Stage::Running) {
        stageReason_ = finishingTransactionNote("stopping");
    }
    interruptSession();
    wake_.notify_all();
    lock.unlock();
    audit("stop", tracker_.globalPersisted().toString());
    return {true, "stopping: flushing what has committed"};
}

CommandResult Task::skipFailedEvent(const SkipEvidence& evidence) {
    std::unique_lock lock(mutex_);
    if (stage_ != Stage::Error || !lastFailure_ || !lastFailure_->failedEvent ||
        lastFailure_->failedTransactionStart.isEmpty()) {
        return stage_ == Stage::Error ? CommandResult{false, "the error has no failed event to skip"}
                                      : refuse("skip the failed event");
    }
    if (lastFailure_->retryable) {
        return {false, "the error is retryable and the task resumes by itself (" + lastFailure_->message +
                           "); skipping would throw away a transaction that can still apply"};
    }
    if (!lastFailure_->failedEvent->rowIdentified) {
        return {false,
                "the failing row could not be told apart from the rest of its batch (the error came at "
                "COMMIT or did not repeat row by row), so the transaction to skip is not known; fix the "
                "cause and resume, or resume from an explicit position"};
    }
    binlog::BinlogPosition skipped = lastFailure_->failedTransactionStart;
    pendingSkip_ = SkipRequest{skipped};
    nlohmann::json skippedRows = failedEventJson(*lastFailure_->failedEvent);
    if (!evidence.replaySqlFile.empty()) {
        skippedRows["replay_sql_file"] = evidence.replaySqlFile;  // the undo, in the skip's own entry
    }
    if (!evidence.preview.empty()) {
        skippedRows["preview"] = evidence.preview;
    }
    lastFailure_.reset();  // the status no longer shows it: the skip is in the audit log
    wanted_ = Wanted::Running;
    retryCount_ = 0;
    wake_.notify_all();
    lock.unlock();
    audit("skip", "transaction at " + skipped.toString() + " skipped", std::move(skippedRows));
    return {true, "skipping the transaction at " + skipped.toString()};
}

CommandResult Task::resumeFrom(const ResumeTarget& target) {
    return resumeFrom(target, SkipEvidence{});
}

CommandResult Task::resumeFrom(const ResumeTarget& target, const SkipEvidence& evidence) {
    {
        std::lock_guard lock(mutex_);
        if (stage_ != Stage::Paused && stage_ != Stage::Stopped) {
            return refuse("resume from a position");
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
    std::lock_guard lock(mutex_);
    if (stage_ != Stage::Paused && stage_ != Stage::Stopped) {
        return refuse("resume from a position");
    }
    pendingResumeFrom_ = target;  // audited when written (applyPendingResumeFrom), with the point it replaces
    pendingResumeEvidence_ = evidence;
    if (stage_ == Stage::Stopped) {
        if (thread_.joinable()) {
            thread_.join();
        }
        wanted_ = Wanted::Running;
        interrupt_ = false;
        stage_ = Stage::Running;
        stageReason_ = "starting from " + describeResumeTarget(target);
        thread_ = std::thread(&Task::threadMain, this);
    } else {
        wanted_ = Wanted::Running;
        wake_.notify_all();
    }
    return {true, "resuming from " + describeResumeTarget(target)};
}

void Task::waitUntilStopped() {
    std::unique_lock lock(mutex_);
    if (thread_.joinable() && wanted_ != Wanted::Stopped) {
        wake_.wait(lock, [this] { return wanted_ == Wanted::Stopped; });
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
    bool changed = stage != stage_ || reason != stageReason_;
    stage_ = stage;
    stageReason_ = reason;
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
        switch (wanted_) {
            case Wanted::Stopped:
                setStage(Stage::Stopped, loadStage_.stopsAfterLoad() && loadStage_.finished()
                                             ? loadStage_.summary()
                                             : "stopped; checkpoint at " + tracker_.globalPersisted().toString());
                wake_.notify_all();
                return;
            case Wanted::Paused:
                setStage(Stage::Paused,
                         (pausedAt_.empty() ? std::string("paused by the DBA") : "reached " + pausedAt_) +
                             "; checkpoint at " + tracker_.globalPersisted().toString());
                wake_.wait(lock, [this] { return wanted_ != Wanted::Paused; });
                break;
            case Wanted::WaitForDba:
                wake_.wait(lock, [this] { return wanted_ != Wanted::WaitForDba; });
                break;
            case Wanted::Running:
                runOneSession(lock);
                break;
        }
    }
}

void Task::runOneSession(std::unique_lock<std::mutex>& lock) {
    interrupt_ = false;
    // "loading the snapshot" only once the load stage knows a load runs (a resumed task's load is done).
    setStage(Stage::Running, "");
    std::optional<SkipRequest> skip = std::exchange(pendingSkip_, std::nullopt);
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
        if (wanted_ == Wanted::Running) {
            wanted_ = Wanted::Stopped;  // task-mode full: done
        }
        lock.unlock();
    } else {
        auto session = std::make_shared<SyncSession>(setup_, tracker_);
        lock.lock();
        if (loadStage_.enabled()) {
            setStage(Stage::Running, "");  // the load is done: no longer "loading the snapshot"
        }
        session_ = session;
        bool interruptedEarly = wanted_ != Wanted::Running;
        lock.unlock();
        if (!interruptedEarly) {
            outcome = session->run(skip, interrupt_);
        }
        SessionLiveView last = session->live();
        lock.lock();
        session_.reset();
        if (!interruptedEarly) {
            endedSession_ = EndedSessionView{last.read, last.oldestUnappliedTimestamp};
        }
        // Counters run over the task's life, not one session's (Prometheus counters never go back).
        totals_.eventsRead += last.eventsRead;
        totals_.rowsApplied += last.rowsApplied;
        for (const auto& [table, rows] : last.rowsPerTable) {
            totals_.rowsByTable[table] += rows;
        }
        for (const auto& [table, rows] : last.rowsUnmatchedPerTable) {
            totals_.rowsUnmatchedByTable[table] += rows;
        }
        lock.unlock();
    }
    tracker_.rollbackToPersisted();
    lock.lock();

    pausedAt_.clear();
    if (outcome.kind == SessionOutcome::Kind::Interrupted) {
        lastFailure_.reset();
        if (!outcome.stopPointReached.empty() && wanted_ == Wanted::Running) {
            pausedAt_ = outcome.stopPointReached;  // one-shot, as START SLAVE UNTIL
            setup_.stopPoint->set(std::nullopt);
            wanted_ = Wanted::Paused;
        }
        return;  // wanted_ says what comes next
    }
    lastFailure_ = outcome;
    if (!(tracker_.globalPersisted() == persistedBefore)) {
        retryCount_ = 0;  // the session got somewhere: this is a new outage, not the same one again
    }
    if (outcome.retryable && wanted_ == Wanted::Running) {
        setStage(Stage::Error, "retryable: " + outcome.message + "; retrying", true);
        waitBeforeRetry(lock);
        return;
    }
    setStage(Stage::Error, outcome.message, true);
    if (wanted_ == Wanted::Running) {
        wanted_ = Wanted::WaitForDba;
    }
}

void Task::waitBeforeRetry(std::unique_lock<std::mutex>& lock) {
    auto delay = retryDelay(retryCount_++);
    spdlog::warn("task {}: resuming by itself in {} ms (attempt {})", setup_.taskName, delay.count(), retryCount_);
    wake_.wait_for(lock, delay, [this] { return wanted_ != Wanted::Running; });
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
        target = std::exchange(pendingResumeFrom_, std::nullopt);
        evidence = std::exchange(pendingResumeEvidence_, SkipEvidence{});
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
        state.stage = stage_;
        state.stageReason = stageReason_;
        if (auto point = setup_.stopPoint->get()) {
            state.stopPoint = point->describe();
        }
        if (lastFailure_) {
            state.failedEvent = lastFailure_->failedEvent;
            state.lastError = lastFailure_->message;
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
