#include "engine/control/status_json.h"

#include <cmath>
#include <cstdio>
#include <ctime>

#include "engine/control/load_status.h"

namespace syncscope::control {

namespace {

constexpr int kMillisPerSecond = 1000;

nlohmann::json optionalTime(const std::optional<task::Clock::time_point>& at) {
    return at ? nlohmann::json(isoTime(*at)) : nlohmann::json(nullptr);
}

nlohmann::json rowImagesJson(const std::vector<task::RowImageView>& images) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& image : images) {
        nlohmann::json values = nlohmann::json::array();
        for (const auto& value : image.values) {
            values.push_back(value ? nlohmann::json(*value) : nlohmann::json(nullptr));
        }
        out.push_back(std::move(values));
    }
    return out;
}

nlohmann::json onlineChangesJson(const std::vector<task::OnlineChangeView>& changes) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& change : changes) {
        // The shadow table lives in the real table's schema (the tools' and DM's rules name tables only).
        list.push_back({{"schema", change.real.schema},
                        {"table", change.real.table},
                        {"shadow_table", change.shadow.table},
                        {"tool", change.tool},
                        {"ddls", change.ddls},
                        {"rows_copied", change.rowsCopied},
                        {"since", change.since}});
    }
    return list;
}

nlohmann::json failedEventJson(const task::FailedEvent& failed) {
    return {{"position", pointJson(failed.position)},
            {"schema", failed.schema},
            {"table", failed.table},
            {"operation", failed.operation},
            {"columns", failed.columns},
            {"before", rowImagesJson(failed.before)},
            {"after", rowImagesJson(failed.after)},
            {"sql", failed.sql},
            {"error_code", failed.errorCode},
            {"error_message", failed.errorMessage},
            {"error_class", failed.errorClass},
            {"hint", failed.hint}};
}

nlohmann::json tableJson(const task::TablePointView& table) {
    return {{"source_id", table.sourceId},
            {"schema", table.schema},
            {"table", table.table},
            {"in_memory", pointJson(table.inMemory)},
            {"persisted", pointJson(table.persisted)},
            {"ahead_of_global", table.aheadOfGlobal},
            {"bytes_from_global", table.bytesFromGlobal},
            {"events_from_global", table.eventsFromGlobal},
            {"rows_applied", table.rowsApplied},
            {"rows_unmatched", table.rowsUnmatched},
            {"last_change", optionalTime(table.lastChange)}};
}

}  // namespace

nlohmann::json shardTableJson(const std::string& sourceId, const TableName& table) {
    return {{"source", sourceId}, {"schema", table.schema}, {"table", table.table}};
}

nlohmann::json shardLocksJson(const std::vector<task::ShardLockStatus>& locks) {
    auto shardsJson = [](const std::vector<task::ShardLockStatus::Shard>& shards, bool arrivals) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& shard : shards) {
            nlohmann::json item = shardTableJson(shard.sourceId, shard.table);
            if (arrivals) {
                item["position"] = shard.position;
                item["since"] = shard.since;
            }
            list.push_back(std::move(item));
        }
        return list;
    };
    nlohmann::json list = nlohmann::json::array();
    for (const auto& lock : locks) {
        list.push_back({{"target_schema", lock.target.schema},
                        {"target_table", lock.target.table},
                        {"ddls", lock.ddls},
                        {"state", lock.ranDownstream ? "ran downstream, sources re-syncing" : "waiting"},
                        {"since", lock.since},
                        {"arrived", shardsJson(lock.arrived, true)},
                        {"waiting_for", shardsJson(lock.waitingFor, false)}});
    }
    return list;
}

nlohmann::json shardColumnsJson(const std::vector<task::ShardColumnStatus>& columns) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& column : columns) {
        nlohmann::json awaited = nlohmann::json::array();
        for (const auto& shard : column.awaited) {
            awaited.push_back(shardTableJson(shard.sourceId, shard.table));
        }
        list.push_back({{"target_schema", column.target.schema},
                        {"target_table", column.target.table},
                        {"column", column.column},
                        {"added_by", shardTableJson(column.addedBy.sourceId, column.addedBy.table)},
                        {"awaited", std::move(awaited)}});
    }
    return list;
}

std::string dmBinlogText(const task::PointView& point) {
    return point.known() ? "(" + point.file + ", " + std::to_string(point.pos) + ")" : std::string();
}

nlohmann::json pointJson(const task::PointView& point) {
    if (!point.known() && point.gtid.empty()) {
        return nullptr;
    }
    return {{"binlog_name", point.file},
            {"binlog_pos", point.pos},
            {"binlog_gtid", point.gtid},
            {"axis_bytes", point.axis ? nlohmann::json(*point.axis) : nlohmann::json(nullptr)},
            {"text", point.text()}};
}

bool isSynced(const task::StatusSnapshot& status) {
    return status.upstream.known() && status.globalPersisted.known() &&
           status.upstream.file == status.globalPersisted.file && status.upstream.pos == status.globalPersisted.pos;
}

std::string isoTime(task::Clock::time_point at) {
    auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(at.time_since_epoch()).count();
    std::time_t seconds = static_cast<std::time_t>(millis / kMillisPerSecond);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    // Room for any int the fields could hold, so that the compiler can prove nothing is cut.
    constexpr size_t kIsoTimeRoom = 96;
    char text[kIsoTimeRoom];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                  utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(millis % kMillisPerSecond));
    return text;
}

nlohmann::json statusJson(const task::StatusSnapshot& status) {
    nlohmann::json files = nlohmann::json::array();
    for (const auto& file : status.upstreamFiles) {
        files.push_back({{"name", file.name}, {"size", file.size}});
    }
    nlohmann::json tables = nlohmann::json::array();
    size_t tablesAhead = 0;
    for (const auto& table : status.tables) {
        tables.push_back(tableJson(table));
        tablesAhead += table.aheadOfGlobal ? 1 : 0;
    }
    return {
        {"task", status.taskName},
        {"source_id", status.sourceId},
        {"sequence", status.sequence},
        {"taken_at", isoTime(status.takenAt)},
        // DM's query-status names.
        {"stage", task::stageName(status.stage)},
        {"stage_reason", status.stageReason},
        {"stop_point", status.stopPoint},
        {"master_binlog", dmBinlogText(status.upstream)},
        {"master_binlog_gtid", status.upstream.gtid},
        {"syncer_binlog", dmBinlogText(status.globalPersisted)},
        {"syncer_binlog_gtid", status.globalPersisted.gtid},
        {"seconds_behind_master", static_cast<int64_t>(std::llround(status.lagSeconds))},
        {"total_events", status.eventsRead},
        {"total_rows", status.rowsApplied},
        {"total_rps", static_cast<int64_t>(std::llround(status.totalRowsPerSecond))},
        {"recent_rps", static_cast<int64_t>(std::llround(status.recentRowsPerSecond))},
        {"synced", isSynced(status)},
        // What DM lacks.
        {"lag_seconds", status.lagSeconds},
        {"points",
         {{"upstream", pointJson(status.upstream)},
          {"read", pointJson(status.read)},
          {"applied", pointJson(status.applied)},
          {"global_in_memory", pointJson(status.globalInMemory)},
          {"global_persisted", pointJson(status.globalPersisted)},
          {"exit_safe", pointJson(status.exitSafe)}}},
        {"upstream_files", files},
        {"tables", tables},
        {"tables_ahead_of_global", tablesAhead},
        {"online_schema_changes", onlineChangesJson(status.onlineChanges)},
        {"shard_locks", shardLocksJson(status.shardLocks)},
        {"shard_columns", shardColumnsJson(status.shardColumns)},
        {"catch_up",
         {{"behind_bytes", status.catchUp.behindBytes},
          {"applied_bytes_per_second", status.catchUp.appliedBytesPerSecond},
          {"upstream_bytes_per_second", status.catchUp.upstreamBytesPerSecond},
          {"eta_seconds",
           status.catchUp.etaSeconds ? nlohmann::json(*status.catchUp.etaSeconds) : nlohmann::json(nullptr)}}},
        {"queues",
         {{"read", status.readQueueDepth},
          {"workers", status.workerQueueDepths},
          {"workers_bytes", status.workerQueueBytes}}},
        {"apply_concurrency",
         {{"busy", status.applyConcurrency.busy},
          {"allowed", status.applyConcurrency.allowed},
          {"ceiling", status.applyConcurrency.ceiling},
          {"adaptive", status.applyConcurrency.adaptive},
          {"changes", status.applyConcurrency.changes},
          {"reason", status.applyConcurrency.reason}}},
        {"safe_mode", status.safeMode},
        {"safe_mode_reason", status.safeModeReason},
        {"global_before_resume_from",
         status.globalBeforeResumeFrom.known() ? status.globalBeforeResumeFrom.text() : std::string()},
        {"safe_mode_until", status.safeModeUntil.known() ? status.safeModeUntil.text() : std::string()},
        {"last_flush", {{"at", optionalTime(status.lastFlush)}, {"duration_ms", status.lastFlushMilliseconds}}},
        {"binlog_stream",
         {{"state", status.stream.reconnecting ? "reconnecting"
                    : status.stream.connected  ? "reading"
                                               : "connecting"},
          {"attempt", status.stream.attempt},
          {"last_error", status.stream.lastError},
          {"reconnects", status.stream.reconnects},
          {"last_cut", status.stream.lastCut}}},
        {"failed_event", status.failedEvent ? failedEventJson(*status.failedEvent) : nlohmann::json(nullptr)},
        {"last_error", status.lastError},
        {"load", status.load ? loadProgressJson(*status.load) : nlohmann::json(nullptr)},
    };
}

}  // namespace syncscope::control
