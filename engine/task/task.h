// One replication task: its thread, which runs the load stage and then one SyncSession at a time, as the lifecycle
// wants (New, Running, Paused, Stopped, Error). The DBA's commands are decided by TaskCommands (task_commands.h)
// under the task's lock: they only set what is wanted and wake the thread, so they answer at once, and every
// accepted one is audited. Retryable errors resume by themselves as RetryPolicy says; a task paused by the DBA
// never resumes by itself. The status snapshots are composed by StatusComposer on a thread of their own.
#pragma once

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "engine/checkpoint/checkpoint_tracker.h"
#include "engine/task/audit_log.h"
#include "engine/task/evidenced_resume_from.h"
#include "engine/task/load_stage.h"
#include "engine/task/notice_queue.h"
#include "engine/task/retry_policy.h"
#include "engine/task/status_composer.h"
#include "engine/task/status_publisher.h"
#include "engine/task/sync_session.h"
#include "engine/task/task_commands.h"
#include "engine/task/task_control.h"
#include "engine/task/task_setup.h"
#include "engine/task/upstream_watch.h"

namespace syncscope::task {

class Task final : public TaskControl, public EvidencedResumeFrom {
public:
    explicit Task(TaskSetup setup);
    ~Task() override;
    Task(const Task&) = delete;
    Task& operator=(const Task&) = delete;

    std::shared_ptr<const StatusSnapshot> status() const override { return publisher_.current(); }
    std::vector<Notice> drainNotices(size_t maxCount) override { return notices_.drain(maxCount); }

    CommandResult start() override;
    CommandResult pause() override;
    CommandResult resume() override;
    CommandResult stop() override;
    using TaskControl::skipFailedEvent;
    CommandResult skipFailedEvent(const SkipEvidence& evidence) override;
    CommandResult resumeFrom(const ResumeTarget& target) override;
    // `evidence`: the replay SQL of the rows a forward resume-from skips, named in its audit entry.
    CommandResult resumeFrom(const ResumeTarget& target, const SkipEvidence& evidence) override;
    CommandResult stopAt(const std::string& point) override;
    CommandResult unlockShardDdl(const std::string& target, bool preview) override;

    Stage stage() const;
    // Stopped on an error that a retry cannot fix: waiting for the DBA (resume, skip, stop).
    bool waitingForDba() const;
    // Blocks until the task's thread has ended (after stop()).
    void waitUntilStopped();
    const TaskSetup& setup() const { return setup_; }

private:
    // Carries out an accepted command's decision (called with `lock` held, returns with it held) and audits it
    // after the lock is let go: the status never waits on a disk.
    CommandResult carryOut(const char* action, CommandDecision decision, std::unique_lock<std::mutex>& lock);
    void startThread(std::unique_lock<std::mutex>& lock);

    void threadMain();
    void runOneSession(std::unique_lock<std::mutex>& lock);
    SessionOutcome runSyncSession(std::optional<SkipRequest> skip, std::unique_lock<std::mutex>& lock);
    bool sessionEnded(const SessionOutcome& outcome, const binlog::Location& persistedBefore);
    std::string applyPendingResumeFrom();  // empty when done; else what failed
    void waitBeforeRetry(std::unique_lock<std::mutex>& lock);
    void setStage(Stage stage, const std::string& reason, bool isError = false);
    void interruptSession();
    void audit(const std::string& action, const std::string& after, nlohmann::json details = nlohmann::json::object());
    void publishLoop();
    std::shared_ptr<const StatusSnapshot> buildSnapshot();

    TaskSetup setup_;
    checkpoint::CheckpointTracker tracker_;
    StatusPublisher publisher_;
    NoticeQueue notices_;
    AuditLog audit_;
    UpstreamWatch upstreamWatch_;
    LoadStage loadStage_;  // task-mode all/full: runs before the first sync session

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    Lifecycle lifecycle_;                   // under mutex_
    binlog::Location previousGlobalPoint_;  // what the last resume-from replaced: its undo
    RetryPolicy retry_;                     // under mutex_
    std::atomic<bool> interrupt_{false};
    std::shared_ptr<SyncSession> session_;          // the running one, for cancel() and live()
    std::optional<EndedSessionView> endedSession_;  // what the last session left unapplied
    SessionTotals totals_;                          // of the sessions that have ended
    std::thread thread_;

    std::atomic<bool> publishing_{true};
    std::thread publisherThread_;
    StatusComposer composer_{setup_};  // publisher thread only
};

}  // namespace syncscope::task
