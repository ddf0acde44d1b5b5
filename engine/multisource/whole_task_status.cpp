#include "engine/multisource/whole_task_status.h"

#include <algorithm>

namespace syncscope::multisource {

namespace {

// Which subtask stage the whole task shows when they differ: an error first, then running (a task with one
// source paused for maintenance still replicates the others), paused, stopped, new.
int stageWeight(task::Stage stage) {
    switch (stage) {
        case task::Stage::Error:
            return 4;
        case task::Stage::Running:
            return 3;
        case task::Stage::Paused:
            return 2;
        case task::Stage::Stopped:
            return 1;
        case task::Stage::New:
            return 0;
    }
    return 0;
}

}  // namespace

std::shared_ptr<const task::StatusSnapshot> wholeTaskStatus(
    const std::vector<std::shared_ptr<const task::StatusSnapshot>>& subtasks) {
    auto whole = std::make_shared<task::StatusSnapshot>();
    if (subtasks.empty()) {
        return whole;
    }
    whole->taskName = subtasks.front()->taskName;
    whole->stage = subtasks.front()->stage;
    bool allCaughtUp = true;
    std::optional<double> slowestEta = 0.0;
    for (const auto& sub : subtasks) {
        const task::StatusSnapshot& s = *sub;
        whole->sequence += s.sequence;
        whole->takenAt = std::max(whole->takenAt, s.takenAt);
        whole->sourceId += (whole->sourceId.empty() ? "" : ",") + s.sourceId;
        if (stageWeight(s.stage) > stageWeight(whole->stage)) {
            whole->stage = s.stage;
        }
        whole->stageReason +=
            (whole->stageReason.empty() ? "" : "; ") + ("source " + s.sourceId + ": " + task::stageName(s.stage));
        if (!s.stageReason.empty()) {
            whole->stageReason += " (" + s.stageReason + ")";
        }
        whole->tables.insert(whole->tables.end(), s.tables.begin(), s.tables.end());
        whole->eventsRead += s.eventsRead;
        whole->rowsApplied += s.rowsApplied;
        whole->recentRowsPerSecond += s.recentRowsPerSecond;
        whole->totalRowsPerSecond += s.totalRowsPerSecond;
        whole->lagSeconds = std::max(whole->lagSeconds, s.lagSeconds);
        whole->catchUp.behindBytes += s.catchUp.behindBytes;
        whole->catchUp.appliedBytesPerSecond += s.catchUp.appliedBytesPerSecond;
        whole->catchUp.upstreamBytesPerSecond += s.catchUp.upstreamBytesPerSecond;
        if (!s.catchUp.etaSeconds) {
            slowestEta.reset();
        } else if (slowestEta) {
            slowestEta = std::max(*slowestEta, *s.catchUp.etaSeconds);
        }
        allCaughtUp = allCaughtUp && s.catchUp.behindBytes == 0;
        whole->readQueueDepth += s.readQueueDepth;
        whole->onlineChanges.insert(whole->onlineChanges.end(), s.onlineChanges.begin(), s.onlineChanges.end());
        if (whole->shardLocks.empty()) {
            whole->shardLocks = s.shardLocks;  // one set of locks for the task, shared by its sources
        }
        if (whole->shardColumns.empty()) {
            whole->shardColumns = s.shardColumns;  // likewise
        }
        whole->workerQueueBytes += s.workerQueueBytes;
        if (s.safeMode) {
            whole->safeMode = true;
            whole->safeModeReason +=
                (whole->safeModeReason.empty() ? "" : "; ") + ("source " + s.sourceId + ": " + s.safeModeReason);
        }
        // Reading only when every source reads; the first source that reconnects is the one shown.
        whole->stream.connected = (sub == subtasks.front() || whole->stream.connected) && s.stream.connected;
        whole->stream.reconnects += s.stream.reconnects;
        if (s.stream.reconnecting && !whole->stream.reconnecting) {
            whole->stream.reconnecting = true;
            whole->stream.attempt = s.stream.attempt;
            whole->stream.lastError = "source " + s.sourceId + ": " + s.stream.lastError;
        }
        if (!s.stream.lastCut.empty()) {
            whole->stream.lastCut = "source " + s.sourceId + ": " + s.stream.lastCut;
        }
        if (s.lastFlush && (!whole->lastFlush || *s.lastFlush > *whole->lastFlush)) {
            whole->lastFlush = s.lastFlush;
            whole->lastFlushMilliseconds = s.lastFlushMilliseconds;
        }
        if (!s.lastError.empty()) {
            whole->lastError += (whole->lastError.empty() ? "" : "; ") + ("source " + s.sourceId + ": " + s.lastError);
        }
        if (s.failedEvent && !whole->failedEvent) {
            whole->failedEvent = s.failedEvent;  // the first subtask's that failed; each subtask has its own
        }
        if (!s.stopPoint.empty()) {
            whole->stopPoint += (whole->stopPoint.empty() ? "" : "; ") + ("source " + s.sourceId + ": " + s.stopPoint);
        }
    }
    whole->catchUp.etaSeconds = allCaughtUp ? std::optional<double>(0.0) : slowestEta;
    return whole;
}

}  // namespace syncscope::multisource
