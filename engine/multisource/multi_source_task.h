// A DM task with several sources, run in one process as one subtask per source: each subtask is the
// engine's single-source Task with its own thread, checkpoint rows (keyed by its source id), safe-mode
// window and failed event. Commands go to one source's subtask (pause one source before upstream
// maintenance, the others keep applying) or to the whole task (every subtask); the whole task's status
// combines the subtasks' (whole_task_status.h).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/control/subtask_directory.h"
#include "engine/multisource/source_subtask.h"
#include "engine/task/task.h"
#include "engine/task/task_control.h"
#include "engine/task/task_setup.h"

namespace syncscope::multisource {

// Where the sources the DBA paused are remembered across restarts (paused_sources.h).
struct PauseMemory {
    std::string file;           // the copy beside the audit log ("": none)
    bool inDownstream = false;  // the truth: `<meta-schema>`.`<task>_syncscope_paused_sources` on the downstream
};

class MultiSourceTask final : public task::TaskControl, public control::SubtaskDirectory {
public:
    // One subtask per setup, in that order; every setup names the same task and its own source id.
    // `memory`: where the sources the DBA paused are remembered across restarts (none: nothing is); throws
    // MultiSourceError when the file or the downstream's table cannot be read.
    explicit MultiSourceTask(std::vector<task::TaskSetup> subtasks, PauseMemory memory = {});
    ~MultiSourceTask() override;
    MultiSourceTask(const MultiSourceTask&) = delete;
    MultiSourceTask& operator=(const MultiSourceTask&) = delete;

    // The whole task.
    std::shared_ptr<const task::StatusSnapshot> status() const override;
    std::vector<task::Notice> drainNotices(size_t maxCount) override;
    task::CommandResult start() override;
    task::CommandResult pause() override;
    task::CommandResult resume() override;
    task::CommandResult stop() override;
    using TaskControl::skipFailedEvent;
    // Skips the failed event of the one subtask that has failed; refused when none or several have.
    task::CommandResult skipFailedEvent(const task::SkipEvidence& evidence) override;
    // A position belongs to one source: refused for the whole task unless it has one source.
    task::CommandResult resumeFrom(const task::ResumeTarget& target) override;
    task::CommandResult stopAt(const std::string& point) override;
    // The task's shard DDL locks are one for all its sources.
    task::CommandResult unlockShardDdl(const std::string& target, bool preview) override {
        return subtasks_.empty() ? TaskControl::unlockShardDdl(target, preview)
                                 : subtasks_.front()->unlockShardDdl(target, preview);
    }

    // The subtasks.
    std::vector<std::string> sourceIds() const override;
    // The source's subtask as commands reach it (its pause remembered); null when the task has no such source.
    task::TaskControl* subtask(const std::string& sourceId) const override;
    std::shared_ptr<SourceSubtask> subtaskOf(const std::string& sourceId) const;  // null when none
    const std::vector<std::shared_ptr<SourceSubtask>>& sourceSubtasks() const { return channels_; }
    // The engine's tasks underneath (their setups, waitingForDba, waitUntilStopped).
    const std::vector<std::shared_ptr<task::Task>>& subtasks() const { return subtasks_; }
    // One source's commands; refused naming the task's sources when it has no such source.
    task::CommandResult pauseSource(const std::string& sourceId);
    task::CommandResult resumeSource(const std::string& sourceId);

    const std::string& taskName() const { return taskName_; }
    bool anyWaitingForDba() const;  // a subtask stopped on an error that needs the DBA
    bool allStopped() const;        // every subtask has ended (stop, or task-mode full done)
    void waitUntilStopped();

private:
    using Command = task::CommandResult (SourceSubtask::*)();
    // Runs `command` on every subtask: accepted when one accepted, the reason naming each source's answer.
    task::CommandResult onEverySubtask(Command command);
    task::CommandResult unknownSource(const std::string& sourceId) const;

    std::string taskName_;
    std::vector<std::shared_ptr<task::Task>> subtasks_;
    std::shared_ptr<PausedSources> paused_;
    std::vector<std::shared_ptr<SourceSubtask>> channels_;  // one per subtask, same order
    mutable std::mutex statusMutex_;
    mutable std::vector<uint64_t> statusSequences_;  // of the subtask snapshots the cached status combines
    mutable std::shared_ptr<const task::StatusSnapshot> status_;
};

}  // namespace syncscope::multisource
