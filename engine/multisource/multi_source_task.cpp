#include "engine/multisource/multi_source_task.h"

#include "engine/multisource/whole_task_status.h"

namespace syncscope::multisource {

namespace {

std::shared_ptr<const PausedSourcesTable> pausedSourcesTable(const std::vector<task::TaskSetup>& subtasks,
                                                             bool inDownstream) {
    if (!inDownstream || subtasks.empty()) {
        return nullptr;
    }
    const task::TaskSetup& first = subtasks.front();  // every subtask writes the one downstream
    return std::make_shared<PausedSourcesTable>(first.downstream, first.metaSchema, first.taskName);
}

}  // namespace

MultiSourceTask::MultiSourceTask(std::vector<task::TaskSetup> subtasks, PauseMemory memory)
    : paused_(
          std::make_shared<PausedSources>(std::move(memory.file), pausedSourcesTable(subtasks, memory.inDownstream))) {
    if (!subtasks.empty()) {
        taskName_ = subtasks.front().taskName;
    }
    for (task::TaskSetup& setup : subtasks) {
        subtasks_.push_back(std::make_shared<task::Task>(std::move(setup)));
        channels_.push_back(std::make_shared<SourceSubtask>(subtasks_.back(), paused_));
    }
}

MultiSourceTask::~MultiSourceTask() {
    for (const auto& subtask : subtasks_) {
        subtask->stop();
    }
    waitUntilStopped();
}

std::shared_ptr<const task::StatusSnapshot> MultiSourceTask::status() const {
    std::vector<std::shared_ptr<const task::StatusSnapshot>> snapshots;
    std::vector<uint64_t> sequences;
    for (const auto& subtask : channels_) {
        snapshots.push_back(subtask->status());
        sequences.push_back(snapshots.back()->sequence);
    }
    std::lock_guard lock(statusMutex_);
    if (!status_ || sequences != statusSequences_) {
        status_ = wholeTaskStatus(snapshots);  // only when a subtask published: the table points are copied
        statusSequences_ = std::move(sequences);
    }
    return status_;
}

std::vector<task::Notice> MultiSourceTask::drainNotices(size_t maxCount) {
    std::vector<task::Notice> notices;
    for (const auto& subtask : subtasks_) {
        if (notices.size() >= maxCount) {
            break;
        }
        const std::string sourceId = subtask->setup().sourceId;
        for (task::Notice& notice : subtask->drainNotices(maxCount - notices.size())) {
            notice.message = "source " + sourceId + ": " +
                             (notice.message.empty() ? std::string(task::stageName(notice.stage)) : notice.message);
            notices.push_back(std::move(notice));
        }
    }
    return notices;
}

task::CommandResult MultiSourceTask::onEverySubtask(Command command) {
    task::CommandResult whole;
    for (const auto& subtask : channels_) {
        task::CommandResult answer = ((*subtask).*command)();
        whole.accepted = whole.accepted || answer.accepted;
        whole.reason += (whole.reason.empty() ? "" : "; ") +
                        ("source " + subtask->sourceId() + ": " + (answer.accepted ? "" : "refused: ") + answer.reason);
    }
    return whole;
}

task::CommandResult MultiSourceTask::start() {
    return onEverySubtask(&SourceSubtask::start);
}

task::CommandResult MultiSourceTask::pause() {
    return onEverySubtask(&SourceSubtask::pause);
}

task::CommandResult MultiSourceTask::resume() {
    return onEverySubtask(&SourceSubtask::resume);
}

task::CommandResult MultiSourceTask::stop() {
    return onEverySubtask(&SourceSubtask::stop);
}

task::CommandResult MultiSourceTask::skipFailedEvent(const task::SkipEvidence& evidence) {
    std::vector<std::shared_ptr<task::Task>> failed;
    for (const auto& subtask : subtasks_) {
        if (subtask->status()->failedEvent) {
            failed.push_back(subtask);
        }
    }
    if (failed.size() == 1) {
        task::CommandResult answer = failed.front()->skipFailedEvent(evidence);
        answer.reason = "source " + failed.front()->setup().sourceId + ": " + answer.reason;
        return answer;
    }
    if (failed.empty()) {
        return {false, "no subtask of task " + taskName_ + " has a failed event to skip"};
    }
    std::string sources;
    for (const auto& subtask : failed) {
        sources += (sources.empty() ? "" : ", ") + subtask->setup().sourceId;
    }
    return {false, std::to_string(failed.size()) + " subtasks have a failed event (sources " + sources +
                       "): skip one source's event (?source=ID)"};
}

task::CommandResult MultiSourceTask::resumeFrom(const task::ResumeTarget& target) {
    if (subtasks_.size() == 1) {
        return subtasks_.front()->resumeFrom(target);
    }
    return {false, "resume-from: a binlog position or GTID belongs to one source; task " + taskName_ + " has " +
                       std::to_string(subtasks_.size()) + " sources: name the source (?source=ID)"};
}

task::CommandResult MultiSourceTask::stopAt(const std::string& point) {
    if (subtasks_.size() == 1 || point.empty()) {
        task::CommandResult whole;
        for (const auto& subtask : subtasks_) {
            task::CommandResult answer = subtask->stopAt(point);
            whole.accepted = whole.accepted || answer.accepted;
            whole.reason +=
                (whole.reason.empty() ? "" : "; ") + ("source " + subtask->setup().sourceId + ": " + answer.reason);
        }
        return whole;
    }
    return {false, "stop at '" + point + "': a point belongs to one source; task " + taskName_ + " has " +
                       std::to_string(subtasks_.size()) + " sources: name the source (?source=ID)"};
}

std::vector<std::string> MultiSourceTask::sourceIds() const {
    std::vector<std::string> ids;
    for (const auto& subtask : subtasks_) {
        ids.push_back(subtask->setup().sourceId);
    }
    return ids;
}

std::shared_ptr<SourceSubtask> MultiSourceTask::subtaskOf(const std::string& sourceId) const {
    for (const auto& subtask : channels_) {
        if (subtask->sourceId() == sourceId) {
            return subtask;
        }
    }
    return nullptr;
}

task::TaskControl* MultiSourceTask::subtask(const std::string& sourceId) const {
    return subtaskOf(sourceId).get();
}

task::CommandResult MultiSourceTask::unknownSource(const std::string& sourceId) const {
    std::string ids;
    for (const std::string& id : sourceIds()) {
        ids += (ids.empty() ? "" : ", ") + id;
    }
    return {false, "task " + taskName_ + " has no source '" + sourceId + "' (its sources: " + ids + ")"};
}

task::CommandResult MultiSourceTask::pauseSource(const std::string& sourceId) {
    auto subtask = subtaskOf(sourceId);
    return subtask ? subtask->pause() : unknownSource(sourceId);
}

task::CommandResult MultiSourceTask::resumeSource(const std::string& sourceId) {
    auto subtask = subtaskOf(sourceId);
    return subtask ? subtask->resume() : unknownSource(sourceId);
}

bool MultiSourceTask::anyWaitingForDba() const {
    for (const auto& subtask : subtasks_) {
        if (subtask->waitingForDba()) {
            return true;
        }
    }
    return false;
}

bool MultiSourceTask::allStopped() const {
    for (const auto& subtask : subtasks_) {
        if (subtask->stage() != task::Stage::Stopped) {
            return false;
        }
    }
    return true;
}

void MultiSourceTask::waitUntilStopped() {
    for (const auto& subtask : subtasks_) {
        subtask->waitUntilStopped();
    }
}

}  // namespace syncscope::multisource
