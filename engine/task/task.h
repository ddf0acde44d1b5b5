// One replication task: the lifecycle (New, Running, Paused, Stopped, Error), the DBA's commands and
// the status snapshots (composed by StatusComposer). The syncer runs on the task's own thread, one SyncSession at a
// time; commands only set what is wanted and wake that thread, so they answer at once. Retryable errors resume by
// themselves with backoff and jitter; a task paused by the DBA never resumes by itself.
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
#include "engine/task/status_composer.h"
#include "engine/task/status_publisher.h"
#include "engine/task/sync_session.h"
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
    CommandResult stopAt(const std::string& point) override;  // task_stop_point.cpp

    Stage stage() const;
    // Stopped on an error that a retry cannot fix: waiting for the DBA (resume, skip, stop).
    bool waitingForDba() const;
    // Blocks until the task's thread has ended (after stop()).
    void waitUntilStopped();
    const TaskSetup& setup() const { return setup_; }

private:
    enum class Wanted { Running, Paused, Stopped, WaitForDba };

    void threadMain();
    void runOneSession(std::unique_lock<std::mutex>& lock);
    std::string applyPendingResumeFrom();  // empty when done; else what failed
    void waitBeforeRetry(std::unique_lock<std::mutex>& lock);
    void setStage(Stage stage, const std::string& reason, bool isError = false);
    void interruptSession();
    void audit(const std::string& action, const std::string& after, nlohmann::json details = nlohmann::json::object());
    CommandResult refuse(const std::string& command) const;
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
    Stage stage_ = Stage::New;
    std::string stageReason_;
    std::string pausedAt_;  // the stop point the last session ended at ("" when paused by the DBA)
    Wanted wanted_ = Wanted::Paused;
    std::optional<SessionOutcome> lastFailure_;
    std::optional<SkipRequest> pendingSkip_;
    std::optional<ResumeTarget> pendingResumeFrom_;
    SkipEvidence pendingResumeEvidence_;    // for pendingResumeFrom_'s audit entry
    binlog::Location previousGlobalPoint_;  // what the last resume-from replaced: its undo
    int retryCount_ = 0;
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
