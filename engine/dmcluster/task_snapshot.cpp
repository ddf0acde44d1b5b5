#include "engine/dmcluster/task_snapshot.h"

#include <algorithm>

#include "engine/common/local_time.h"
#include "engine/dmcluster/dm_cluster.h"

namespace syncscope::dmcluster {

namespace {

task::PointView pointOf(const DmLocation& location) {
    task::PointView point;
    point.file = location.file;
    point.pos = location.pos;
    point.gtid = location.gtid;
    return point;
}

task::Stage stageOf(const DmSubtask& subtask) {
    if (!subtask.errorMessage.empty()) {
        return task::Stage::Error;
    }
    if (subtask.stage == "Running") {
        return task::Stage::Running;
    }
    if (subtask.stage == "Paused") {
        return task::Stage::Paused;
    }
    return task::Stage::Stopped;  // Stopped, Finished
}

std::string describe(const DmSubtask& subtask) {
    std::string text = "DM " + subtask.stage + ", unit " + subtask.unit + " on " +
                       (subtask.worker.empty() ? std::string("no worker") : subtask.worker);
    if (subtask.sync) {
        text += ", syncer at " +
                (subtask.sync->syncerBinlog.file.empty()
                     ? std::string("-")
                     : subtask.sync->syncerBinlog.file + ":" + std::to_string(subtask.sync->syncerBinlog.pos));
        if (subtask.sync->synced) {
            text += ", synced";
        }
    }
    if (subtask.loadProgress) {
        text += ", " + subtask.unit + " " + *subtask.loadProgress;
    }
    return text;
}

void fillFromSubtask(task::StatusSnapshot& snapshot, const DmSubtask& subtask) {
    snapshot.stage = stageOf(subtask);
    snapshot.stageReason = describe(subtask);
    snapshot.lastError = subtaskProblem(subtask);
    if (subtask.sync) {
        const DmSyncStatus& sync = *subtask.sync;
        snapshot.upstream = pointOf(sync.masterBinlog);
        snapshot.read = pointOf(sync.syncerBinlog);
        snapshot.applied = pointOf(sync.syncerBinlog);
        // DM gives no file sizes: the ruler's axis is the master's current file alone, up to its position, and
        // a point in an earlier file has no place on it.
        if (!sync.masterBinlog.file.empty()) {
            snapshot.upstreamFiles = {{sync.masterBinlog.file, sync.masterBinlog.pos}};
            for (task::PointView* point : {&snapshot.upstream, &snapshot.read, &snapshot.applied}) {
                if (point->file == sync.masterBinlog.file) {
                    point->axis = point->pos;
                }
            }
            if (snapshot.applied.axis && *snapshot.applied.axis <= sync.masterBinlog.pos) {
                snapshot.catchUp.behindBytes = sync.masterBinlog.pos - *snapshot.applied.axis;
            }
        }
        snapshot.eventsRead = static_cast<uint64_t>(std::max<int64_t>(0, sync.totalEvents));
        snapshot.recentRowsPerSecond = static_cast<double>(sync.recentTps);
        snapshot.totalRowsPerSecond = static_cast<double>(sync.totalTps);
        snapshot.lagSeconds = static_cast<double>(std::max<int64_t>(0, sync.secondsBehindMaster));
    }
}

task::PointView pointOf(const inspect::CheckpointRow& row, bool exitSafe, const task::StatusSnapshot& snapshot) {
    task::PointView point;
    point.file = exitSafe ? row.exitSafeBinlogName : row.binlogName;
    point.pos = (exitSafe ? row.exitSafeBinlogPos : row.binlogPos).value_or(0);
    point.gtid = exitSafe ? row.exitSafeBinlogGtid : row.binlogGtid;
    if (!snapshot.upstreamFiles.empty() && point.file == snapshot.upstreamFiles.front().name) {
        point.axis = point.pos;
    }
    return point;
}

// The source's rows of the task's checkpoint table: the persisted global point, the exit-safe point and
// each table's point, flagged where the inspection found it ahead of the global point.
void fillCheckpoints(task::StatusSnapshot& snapshot, const TaskCheckpoints& checkpoints, const std::string& source) {
    if (!checkpoints.error.empty()) {
        snapshot.stageReason += "; checkpoint tables: " + checkpoints.error;
    }
    if (!checkpoints.table) {
        return;
    }
    for (const auto& inspected : checkpoints.table->sources) {
        if (inspected.sourceId != source) {
            continue;
        }
        if (inspected.global) {
            snapshot.globalPersisted = pointOf(inspected.global->row, false, snapshot);
            snapshot.globalInMemory = snapshot.globalPersisted;
            snapshot.exitSafe = pointOf(inspected.global->row, true, snapshot);
        }
        for (const auto& table : inspected.tables) {
            task::TablePointView view;
            view.schema = table.row.schema;
            view.table = table.row.table;
            view.persisted = pointOf(table.row, false, snapshot);
            view.inMemory = view.persisted;
            for (const auto& anomaly : table.anomalies) {
                if (anomaly.kind == inspect::AnomalyKind::TableAheadOfGlobal) {
                    view.aheadOfGlobal = true;
                    if (anomaly.skipWindow && anomaly.skipWindow->bytes) {
                        view.bytesFromGlobal = *anomaly.skipWindow->bytes;
                    }
                }
            }
            snapshot.tables.push_back(std::move(view));
        }
    }
}

void combine(task::StatusSnapshot& snapshot, const DmTask& task) {
    if (task.subtasks.empty()) {
        snapshot.stage = task::Stage::New;
        snapshot.stageReason = "DM gives no subtask status for this task";
        return;
    }
    if (task.subtasks.size() == 1) {
        fillFromSubtask(snapshot, task.subtasks.front());
        snapshot.stageReason = task.subtasks.front().source + ": " + snapshot.stageReason;
        return;
    }
    bool anyError = false;
    bool anyRunning = false;
    bool allPaused = true;
    for (const auto& subtask : task.subtasks) {
        const task::Stage stage = stageOf(subtask);
        anyError = anyError || stage == task::Stage::Error;
        anyRunning = anyRunning || stage == task::Stage::Running;
        allPaused = allPaused && stage == task::Stage::Paused;
        snapshot.stageReason += (snapshot.stageReason.empty() ? "" : "; ") + subtask.source + ": " + describe(subtask);
        if (std::string problem = subtaskProblem(subtask); !problem.empty()) {
            snapshot.lastError += (snapshot.lastError.empty() ? "" : "; ") + subtask.source + ": " + problem;
        }
        if (subtask.sync) {
            snapshot.eventsRead += static_cast<uint64_t>(std::max<int64_t>(0, subtask.sync->totalEvents));
            snapshot.recentRowsPerSecond += static_cast<double>(subtask.sync->recentTps);
            snapshot.totalRowsPerSecond += static_cast<double>(subtask.sync->totalTps);
            snapshot.lagSeconds = std::max(snapshot.lagSeconds, static_cast<double>(subtask.sync->secondsBehindMaster));
        }
    }
    snapshot.stage = anyError     ? task::Stage::Error
                     : anyRunning ? task::Stage::Running
                     : allPaused  ? task::Stage::Paused
                                  : task::Stage::Stopped;
}

}  // namespace

std::string subtaskProblem(const DmSubtask& subtask) {
    std::string text = subtask.errorMessage;
    auto add = [&text](const std::string& part) { text += (text.empty() ? "" : "; ") + part; };
    if (subtask.sync) {
        for (const auto& ddl : subtask.sync->blockingDdls) {
            add("blocking DDL: " + ddl);
        }
        for (const auto& target : subtask.sync->unresolvedGroups) {
            add("unresolved sharding group " + target);
        }
    }
    if (!subtask.unresolvedDdlLockId.empty()) {
        add("unresolved DDL lock " + subtask.unresolvedDdlLockId);
    }
    return text;
}

task::StatusSnapshot dmTaskSnapshot(const ClusterState& state, const std::optional<TaskCheckpoints>& checkpoints,
                                    const std::string& taskName, const std::string& source,
                                    const std::string& clusterName) {
    task::StatusSnapshot snapshot;
    snapshot.sequence = state.polls;
    snapshot.takenAt = task::Clock::now();
    snapshot.taskName = taskName;
    snapshot.sourceId = source;
    if (!state.error.empty() || !state.lastSeen) {
        snapshot.stage = task::Stage::Error;
        const std::string seen = state.lastSeen ? "last seen " + clockText(*state.lastSeen) : "never reached";
        snapshot.stageReason = "lost (" + seen + "), reconnecting";
        snapshot.lastError = "DM cluster " + clusterName + ": " +
                             (state.error.empty() ? std::string("connecting") : state.error) + " (" + seen + ")";
        return snapshot;
    }
    const DmTask* task = state.task(taskName);
    if (!task) {
        snapshot.stage = task::Stage::Error;
        snapshot.stageReason = "the DM cluster no longer has this task";
        snapshot.lastError = "DM cluster " + clusterName + " has no task '" + taskName + "' (deleted?)";
        return snapshot;
    }
    if (source.empty()) {
        combine(snapshot, *task);
        if (checkpoints && task->subtasks.size() == 1) {
            fillCheckpoints(snapshot, *checkpoints, task->subtasks.front().source);
        }
        return snapshot;
    }
    for (const auto& subtask : task->subtasks) {
        if (subtask.source == source) {
            fillFromSubtask(snapshot, subtask);
            if (checkpoints) {
                fillCheckpoints(snapshot, *checkpoints, source);
            }
            return snapshot;
        }
    }
    snapshot.stage = task::Stage::Error;
    snapshot.stageReason = "DM gives no status for this source";
    snapshot.lastError = "task '" + taskName + "' has no subtask on source '" + source + "'";
    return snapshot;
}

}  // namespace syncscope::dmcluster
