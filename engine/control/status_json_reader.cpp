#include "engine/control/status_json_reader.h"

#include <cstdio>
#include <ctime>

#include "engine/common/error.h"

namespace syncscope::control {

namespace {

template <typename T>
T valueOr(const nlohmann::json& object, const char* key, T fallback) {
    if (!object.is_object()) {
        return fallback;
    }
    auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
        return fallback;
    }
    try {
        return it->get<T>();
    } catch (const nlohmann::json::exception& e) {
        throw Error(std::string("status JSON: key '") + key + "' has the wrong type: " + e.what());
    }
}

task::PointView pointFrom(const nlohmann::json& json) {
    task::PointView point;
    if (!json.is_object()) {
        return point;
    }
    point.file = valueOr<std::string>(json, "binlog_name", "");
    point.pos = valueOr<uint64_t>(json, "binlog_pos", 0);
    point.gtid = valueOr<std::string>(json, "binlog_gtid", "");
    if (auto axis = json.find("axis_bytes"); axis != json.end() && axis->is_number_unsigned()) {
        point.axis = axis->get<uint64_t>();
    }
    return point;
}

std::optional<task::Clock::time_point> timeFrom(const nlohmann::json& json) {
    return json.is_string() ? parseIsoTime(json.get<std::string>()) : std::nullopt;
}

std::vector<task::RowImageView> imagesFrom(const nlohmann::json& json) {
    std::vector<task::RowImageView> images;
    if (!json.is_array()) {
        return images;
    }
    for (const auto& row : json) {
        task::RowImageView image;
        if (row.is_array()) {
            for (const auto& value : row) {
                image.values.push_back(value.is_string() ? std::optional<std::string>(value.get<std::string>())
                                                         : std::nullopt);
            }
        }
        images.push_back(std::move(image));
    }
    return images;
}

}  // namespace

std::optional<task::Clock::time_point> parseIsoTime(const std::string& text) {
    std::tm utc{};
    int millis = 0;
    if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d.%3dZ", &utc.tm_year, &utc.tm_mon, &utc.tm_mday, &utc.tm_hour,
                    &utc.tm_min, &utc.tm_sec, &millis) != 7) {
        return std::nullopt;
    }
    constexpr int kTmYearBase = 1900;
    utc.tm_year -= kTmYearBase;
    utc.tm_mon -= 1;
    std::time_t seconds = timegm(&utc);
    return task::Clock::time_point(std::chrono::seconds(seconds)) + std::chrono::milliseconds(millis);
}

task::Stage stageFromName(const std::string& name) {
    for (task::Stage stage :
         {task::Stage::New, task::Stage::Running, task::Stage::Paused, task::Stage::Stopped, task::Stage::Error}) {
        if (name == task::stageName(stage)) {
            return stage;
        }
    }
    throw Error("status JSON: unknown stage '" + name + "'");
}

task::StatusSnapshot statusFromJson(const nlohmann::json& json) {
    if (!json.is_object()) {
        throw Error("status JSON: not an object");
    }
    task::StatusSnapshot s;
    s.sequence = valueOr<uint64_t>(json, "sequence", 0);
    s.takenAt = timeFrom(json.value("taken_at", nlohmann::json())).value_or(task::Clock::now());
    s.taskName = valueOr<std::string>(json, "task", "");
    s.sourceId = valueOr<std::string>(json, "source_id", "");
    s.stage = stageFromName(valueOr<std::string>(json, "stage", "New"));
    s.stageReason = valueOr<std::string>(json, "stage_reason", "");
    s.stopPoint = valueOr<std::string>(json, "stop_point", "");
    const nlohmann::json points = json.value("points", nlohmann::json::object());
    s.upstream = pointFrom(points.value("upstream", nlohmann::json()));
    s.read = pointFrom(points.value("read", nlohmann::json()));
    s.applied = pointFrom(points.value("applied", nlohmann::json()));
    s.globalInMemory = pointFrom(points.value("global_in_memory", nlohmann::json()));
    s.globalPersisted = pointFrom(points.value("global_persisted", nlohmann::json()));
    s.exitSafe = pointFrom(points.value("exit_safe", nlohmann::json()));
    for (const auto& file : json.value("upstream_files", nlohmann::json::array())) {
        s.upstreamFiles.push_back({valueOr<std::string>(file, "name", ""), valueOr<uint64_t>(file, "size", 0)});
    }
    for (const auto& table : json.value("tables", nlohmann::json::array())) {
        task::TablePointView view;
        view.sourceId = valueOr<std::string>(table, "source_id", "");
        view.schema = valueOr<std::string>(table, "schema", "");
        view.table = valueOr<std::string>(table, "table", "");
        view.inMemory = pointFrom(table.value("in_memory", nlohmann::json()));
        view.persisted = pointFrom(table.value("persisted", nlohmann::json()));
        view.aheadOfGlobal = valueOr<bool>(table, "ahead_of_global", false);
        view.bytesFromGlobal = valueOr<int64_t>(table, "bytes_from_global", 0);
        view.eventsFromGlobal = valueOr<uint64_t>(table, "events_from_global", 0);
        view.rowsApplied = valueOr<uint64_t>(table, "rows_applied", 0);
        view.rowsUnmatched = valueOr<uint64_t>(table, "rows_unmatched", 0);
        view.lastChange = timeFrom(table.value("last_change", nlohmann::json()));
        s.tables.push_back(std::move(view));
    }
    for (const auto& change : json.value("online_schema_changes", nlohmann::json::array())) {
        task::OnlineChangeView view;
        view.real = {valueOr<std::string>(change, "schema", ""), valueOr<std::string>(change, "table", "")};
        view.shadow = {view.real.schema, valueOr<std::string>(change, "shadow_table", "")};
        view.tool = valueOr<std::string>(change, "tool", "");
        view.ddls = valueOr<std::vector<std::string>>(change, "ddls", {});
        view.rowsCopied = valueOr<uint64_t>(change, "rows_copied", 0);
        view.since = valueOr<std::string>(change, "since", "");
        s.onlineChanges.push_back(std::move(view));
    }
    for (const auto& lock : json.value("shard_locks", nlohmann::json::array())) {
        task::ShardLockStatus view;
        view.target = {valueOr<std::string>(lock, "target_schema", ""), valueOr<std::string>(lock, "target_table", "")};
        view.ddls = valueOr<std::vector<std::string>>(lock, "ddls", {});
        view.since = valueOr<int64_t>(lock, "since", 0);
        view.ranDownstream = valueOr<std::string>(lock, "state", "") != "waiting";
        for (const char* key : {"arrived", "waiting_for"}) {
            for (const auto& shard : lock.value(key, nlohmann::json::array())) {
                task::ShardLockStatus::Shard item{
                    valueOr<std::string>(shard, "source", ""),
                    {valueOr<std::string>(shard, "schema", ""), valueOr<std::string>(shard, "table", "")},
                    valueOr<std::string>(shard, "position", ""),
                    valueOr<int64_t>(shard, "since", 0)};
                (std::string(key) == "arrived" ? view.arrived : view.waitingFor).push_back(std::move(item));
            }
        }
        s.shardLocks.push_back(std::move(view));
    }
    auto shardOf = [](const nlohmann::json& shard) {
        return task::ShardLockStatus::Shard{
            valueOr<std::string>(shard, "source", ""),
            {valueOr<std::string>(shard, "schema", ""), valueOr<std::string>(shard, "table", "")},
            "",
            0};
    };
    for (const auto& column : json.value("shard_columns", nlohmann::json::array())) {
        task::ShardColumnStatus view;
        view.target = {valueOr<std::string>(column, "target_schema", ""),
                       valueOr<std::string>(column, "target_table", "")};
        view.column = valueOr<std::string>(column, "column", "");
        view.addedBy = shardOf(column.value("added_by", nlohmann::json::object()));
        for (const auto& shard : column.value("awaited", nlohmann::json::array())) {
            view.awaited.push_back(shardOf(shard));
        }
        s.shardColumns.push_back(std::move(view));
    }
    s.eventsRead = valueOr<uint64_t>(json, "total_events", 0);
    s.rowsApplied = valueOr<uint64_t>(json, "total_rows", 0);
    s.recentRowsPerSecond = valueOr<double>(json, "recent_rps", 0);
    s.totalRowsPerSecond = valueOr<double>(json, "total_rps", 0);
    s.lagSeconds = valueOr<double>(json, "lag_seconds", 0);
    const nlohmann::json queues = json.value("queues", nlohmann::json::object());
    s.readQueueDepth = valueOr<uint64_t>(queues, "read", 0);
    s.workerQueueDepths = valueOr<std::vector<uint64_t>>(queues, "workers", {});
    s.safeMode = valueOr<bool>(json, "safe_mode", false);
    s.safeModeReason = valueOr<std::string>(json, "safe_mode_reason", "");
    const nlohmann::json flush = json.value("last_flush", nlohmann::json::object());
    s.lastFlush = timeFrom(flush.value("at", nlohmann::json()));
    s.lastFlushMilliseconds = valueOr<double>(flush, "duration_ms", 0);
    const nlohmann::json stream = json.value("binlog_stream", nlohmann::json::object());
    const std::string state = valueOr<std::string>(stream, "state", "connecting");
    s.stream.reconnecting = state == "reconnecting";
    s.stream.connected = state == "reading";
    s.stream.attempt = valueOr<int>(stream, "attempt", 0);
    s.stream.lastError = valueOr<std::string>(stream, "last_error", "");
    s.stream.reconnects = valueOr<uint64_t>(stream, "reconnects", 0);
    s.stream.lastCut = valueOr<std::string>(stream, "last_cut", "");
    const nlohmann::json failed = json.value("failed_event", nlohmann::json());
    if (failed.is_object()) {
        task::FailedEvent event;
        event.position = pointFrom(failed.value("position", nlohmann::json()));
        event.schema = valueOr<std::string>(failed, "schema", "");
        event.table = valueOr<std::string>(failed, "table", "");
        event.operation = valueOr<std::string>(failed, "operation", "");
        event.columns = valueOr<std::vector<std::string>>(failed, "columns", {});
        event.before = imagesFrom(failed.value("before", nlohmann::json()));
        event.after = imagesFrom(failed.value("after", nlohmann::json()));
        event.sql = valueOr<std::string>(failed, "sql", "");
        event.errorCode = valueOr<int>(failed, "error_code", 0);
        event.errorMessage = valueOr<std::string>(failed, "error_message", "");
        event.errorClass = valueOr<std::string>(failed, "error_class", "");
        event.hint = valueOr<std::string>(failed, "hint", "");
        s.failedEvent = std::move(event);
    }
    s.lastError = valueOr<std::string>(json, "last_error", "");
    return s;
}

}  // namespace syncscope::control
