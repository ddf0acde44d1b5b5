#include "engine/control/metrics_page.h"

#include "engine/binlog/binlog_position.h"
#include "engine/control/load_status.h"
#include "engine/control/metrics_writer.h"
#include "engine/control/status_json.h"
#include "engine/task/shard_ddl_locks.h"

namespace syncscope::control {

namespace {

constexpr double kMillisPerSecond = 1000.0;
constexpr task::Stage kStages[] = {task::Stage::New, task::Stage::Running, task::Stage::Paused, task::Stage::Stopped,
                                   task::Stage::Error};

struct NamedPoint {
    const char* name;
    const task::PointView* point;
};

// From whole milliseconds, so that the value does not pick up the rounding noise of nanoseconds.
double seconds(task::Clock::time_point at) {
    auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count();
    return static_cast<double>(millis) / kMillisPerSecond;
}

void writePositions(MetricsWriter& out, const task::StatusSnapshot& status, const MetricLabels& task) {
    const NamedPoint points[] = {{"upstream", &status.upstream},
                                 {"read", &status.read},
                                 {"applied", &status.applied},
                                 {"global_in_memory", &status.globalInMemory},
                                 {"global_persisted", &status.globalPersisted},
                                 {"exit_safe", &status.exitSafe}};
    auto with = [&](const char* point) {
        MetricLabels labels = task;
        labels.emplace_back("point", point);
        return labels;
    };
    out.family("syncscope_position_axis_bytes", "gauge",
               "Position on the upstream's byte axis (bytes from the start of its oldest binlog file), by point.");
    for (const auto& [name, point] : points) {
        if (point->axis) {
            out.sample(*point->axis, with(name));
        }
    }
    out.family("syncscope_position_file_number", "gauge", "Numeric suffix of the point's binlog file, by point.");
    for (const auto& [name, point] : points) {
        if (point->known() && binlog::BinlogPosition::isBinlogFileName(point->file)) {
            out.sample(binlog::BinlogPosition::fileNumberOf(point->file), with(name));
        }
    }
    out.family("syncscope_position_offset_bytes", "gauge", "Offset of the point in its binlog file, by point.");
    for (const auto& [name, point] : points) {
        if (point->known()) {
            out.sample(point->pos, with(name));
        }
    }
}

void writeTables(MetricsWriter& out, const task::StatusSnapshot& status, const MetricLabels& task) {
    uint64_t ahead = 0;
    uint64_t heldByLock = 0;
    for (const auto& table : status.tables) {
        if (!table.aheadOfGlobal) {
            continue;
        }
        const bool held =
            !status.shardLocks.empty() && task::lockHoldingSource(status.shardLocks, table.sourceId) != nullptr;
        (held ? heldByLock : ahead) += 1;
    }
    out.family("syncscope_tables_ahead_of_global", "gauge",
               "Table points persisted ahead of the persisted global point, none held by a shard DDL lock: a resume "
               "would skip their events.");
    out.sample(ahead, task);
    out.family("syncscope_tables_ahead_of_global_for_shard_lock", "gauge",
               "Table points ahead of a global point a shard DDL lock holds (shard-mode): expected until the lock is "
               "passed.");
    out.sample(heldByLock, task);
    out.family("syncscope_table_ahead_of_global", "gauge",
               "1 where this table's persisted point runs ahead of the persisted global point.");
    for (const auto& table : status.tables) {
        MetricLabels labels = task;
        labels.emplace_back("schema", table.schema);
        labels.emplace_back("table", table.table);
        out.sample(uint64_t{table.aheadOfGlobal ? 1U : 0U}, labels);
    }
    out.family("syncscope_table_ahead_of_global_bytes", "gauge",
               "Bytes from the persisted global point to this table's persisted point (negative: behind).");
    for (const auto& table : status.tables) {
        MetricLabels labels = task;
        labels.emplace_back("schema", table.schema);
        labels.emplace_back("table", table.table);
        out.sample(static_cast<double>(table.bytesFromGlobal), labels);
    }
    out.family("syncscope_table_rows_applied_total", "counter", "Rows applied to this table since the engine started.");
    for (const auto& table : status.tables) {
        MetricLabels labels = task;
        labels.emplace_back("schema", table.schema);
        labels.emplace_back("table", table.table);
        out.sample(table.rowsApplied, labels);
    }
    out.family("syncscope_table_rows_unmatched_total", "counter",
               "UPDATEs and DELETEs applied to this table (outside safe mode) that found no downstream row: drift.");
    for (const auto& table : status.tables) {
        MetricLabels labels = task;
        labels.emplace_back("schema", table.schema);
        labels.emplace_back("table", table.table);
        out.sample(table.rowsUnmatched, labels);
    }
}

}  // namespace

std::string renderMetrics(const task::StatusSnapshot& status, const std::map<std::string, uint64_t>& errorsByClass) {
    MetricsWriter out;
    const MetricLabels task{{"task", status.taskName}, {"source_id", status.sourceId}};
    auto withLabel = [&](const char* name, const std::string& value) {
        MetricLabels labels = task;
        labels.emplace_back(name, value);
        return labels;
    };

    out.family("syncscope_stage", "gauge", "1 for the task's current stage, 0 for the others.");
    for (task::Stage stage : kStages) {
        out.sample(uint64_t{stage == status.stage ? 1U : 0U}, withLabel("stage", task::stageName(stage)));
    }
    out.family("syncscope_synced", "gauge", "1 when the persisted global point has reached the upstream's position.");
    out.sample(uint64_t{isSynced(status) ? 1U : 0U}, task);

    writePositions(out, status, task);

    out.family("syncscope_lag_seconds", "gauge",
               "Seconds behind the upstream, from the oldest unapplied event (DM's seconds_behind_master).");
    out.sample(status.lagSeconds, task);
    out.family("syncscope_events_read_total", "counter", "Binlog events read since the engine started.");
    out.sample(status.eventsRead, task);
    out.family("syncscope_rows_applied_total", "counter", "Rows committed downstream since the engine started.");
    out.sample(status.rowsApplied, task);
    out.family("syncscope_rows_per_second", "gauge", "Rows applied per second, recently and since the start.");
    out.sample(status.recentRowsPerSecond, withLabel("window", "recent"));
    out.sample(status.totalRowsPerSecond, withLabel("window", "total"));

    out.family("syncscope_behind_bytes", "gauge", "Binlog bytes between the applied point and the upstream's end.");
    out.sample(status.catchUp.behindBytes, task);
    if (status.catchUp.etaSeconds) {
        out.family("syncscope_catch_up_eta_seconds", "gauge",
                   "Seconds until caught up at the rates of the last 30 s (absent when unknown or not catching up).");
        out.sample(*status.catchUp.etaSeconds, task);
    }

    out.family("syncscope_read_queue_rows", "gauge",
               "Rows read and not yet dispatched to a worker (an XA branch waits here for its outcome).");
    out.sample(status.readQueueDepth, task);
    out.family("syncscope_worker_queue_jobs", "gauge", "Jobs queued for each apply worker.");
    for (size_t i = 0; i < status.workerQueueDepths.size(); ++i) {
        out.sample(status.workerQueueDepths[i], withLabel("worker", std::to_string(i)));
    }

    out.family("syncscope_worker_queue_bytes", "gauge",
               "Bytes of row changes queued for the apply workers, all workers together (bounded).");
    out.sample(status.workerQueueBytes, task);
    out.family("syncscope_apply_busy_transactions", "gauge", "Downstream transactions open right now.");
    out.sample(uint64_t{status.applyConcurrency.busy}, task);
    out.family("syncscope_apply_allowed_transactions", "gauge",
               "Downstream transactions the workers may run at once (adaptive concurrency's current limit).");
    out.sample(uint64_t{status.applyConcurrency.allowed}, task);
    out.family("syncscope_apply_ceiling_transactions", "gauge",
               "The most downstream transactions at once (worker-count).");
    out.sample(uint64_t{status.applyConcurrency.ceiling}, task);
    out.family("syncscope_apply_concurrency_changes_total", "counter",
               "How often adaptive concurrency moved its limit.");
    out.sample(status.applyConcurrency.changes, task);

    out.family("syncscope_safe_mode", "gauge",
               "1 while safe mode is on (changes written so that applying them twice leaves the same rows).");
    out.sample(uint64_t{status.safeMode ? 1U : 0U}, task);
    out.family("syncscope_online_schema_changes", "gauge",
               "Online schema changes (pt-osc, gh-ost) running and followed (online-ddl): their DDLs wait for the "
               "tool's swap.");
    out.sample(static_cast<uint64_t>(status.onlineChanges.size()), task);
    if (!status.onlineChanges.empty()) {
        out.family("syncscope_online_schema_change_copied_rows", "gauge",
                   "Row changes of a running online schema change's copy read in this session (never applied).");
        for (const auto& change : status.onlineChanges) {
            MetricLabels labels = task;
            labels.emplace_back("schema", change.real.schema);
            labels.emplace_back("table", change.real.table);
            labels.emplace_back("shadow_table", change.shadow.table);
            out.sample(change.rowsCopied, labels);
        }
    }
    out.family("syncscope_shard_ddl_locks", "gauge",
               "Shard DDL locks (shard-mode) not yet passed by every shard table: waiting for shard tables to read "
               "the DDL, or ran downstream while sources re-sync.");
    out.sample(static_cast<uint64_t>(status.shardLocks.size()), task);
    // The per-lock families are served, without a sample, while no lock exists: the alert rules name them.
    const int64_t now =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    auto labelsOf = [&task](const task::ShardLockStatus& lock) {
        MetricLabels labels = task;
        labels.emplace_back("target_schema", lock.target.schema);
        labels.emplace_back("target_table", lock.target.table);
        return labels;
    };
    out.family("syncscope_shard_ddl_lock_waiting_tables", "gauge",
               "Shard tables a shard DDL lock waits for, per merged table (0 once it ran downstream).");
    for (const auto& lock : status.shardLocks) {
        out.sample(static_cast<uint64_t>(lock.ranDownstream ? 0 : lock.waitingFor.size()), labelsOf(lock));
    }
    out.family("syncscope_shard_ddl_lock_age_seconds", "gauge",
               "Seconds since a shard DDL lock's first shard table read its DDL, per merged table.");
    for (const auto& lock : status.shardLocks) {
        out.sample(static_cast<uint64_t>(std::max<int64_t>(0, now - lock.since)), labelsOf(lock));
    }
    out.family("syncscope_shard_column_awaited_tables", "gauge",
               "shard-mode optimistic: shard tables that still lack a column another shard table added to the "
               "merged table (their rows take its default), per merged table and column.");
    for (const auto& column : status.shardColumns) {
        MetricLabels labels = task;
        labels.emplace_back("target_schema", column.target.schema);
        labels.emplace_back("target_table", column.target.table);
        labels.emplace_back("column", column.column);
        out.sample(static_cast<uint64_t>(column.awaited.size()), labels);
    }
    out.family("syncscope_binlog_stream_reconnecting", "gauge",
               "1 while a lost binlog connection is being resumed in place (status binlog_stream has the attempt).");
    out.sample(uint64_t{status.stream.reconnecting ? 1U : 0U}, task);
    out.family("syncscope_binlog_stream_reconnects_total", "counter",
               "Lost binlog connections resumed in place (without a new session) in the current session.");
    out.sample(status.stream.reconnects, task);
    out.family("syncscope_last_flush_duration_seconds", "gauge", "How long the last checkpoint flush took.");
    out.sample(status.lastFlushMilliseconds / kMillisPerSecond, task);
    out.family("syncscope_last_flush_timestamp_seconds", "gauge", "Unix time of the last checkpoint flush.");
    if (status.lastFlush) {
        out.sample(seconds(*status.lastFlush), task);
    }

    writeTables(out, status, task);
    if (status.load) {
        writeLoadMetrics(out, *status.load, task);
    }

    out.family("syncscope_errors_total", "counter", "Errors the task ran into since the engine started, by class.");
    for (const auto& [errorClass, count] : errorsByClass) {
        out.sample(count, withLabel("class", errorClass));
    }
    out.family("syncscope_failed_event", "gauge",
               "1 while the task holds a failed event (stopped on it, waiting for a fix, a resume or a skip).");
    out.sample(uint64_t{status.failedEvent ? 1U : 0U}, task);
    out.family("syncscope_upstream_binlog_files", "gauge", "Binlog files the upstream still has (SHOW BINARY LOGS).");
    out.sample(static_cast<uint64_t>(status.upstreamFiles.size()), task);
    out.family("syncscope_upstream_oldest_binlog_file_number", "gauge",
               "Numeric suffix of the oldest binlog file the upstream still has: a persisted point in an older file "
               "was purged.");
    if (!status.upstreamFiles.empty() && binlog::BinlogPosition::isBinlogFileName(status.upstreamFiles.front().name)) {
        out.sample(binlog::BinlogPosition::fileNumberOf(status.upstreamFiles.front().name), task);
    }
    out.family("syncscope_status_snapshots_total", "counter",
               "Status snapshots published since the engine started (the sequence number of the one rendered).");
    out.sample(status.sequence, task);
    return out.text();
}

}  // namespace syncscope::control
