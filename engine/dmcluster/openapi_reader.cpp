#include "engine/dmcluster/openapi_reader.h"

#include <algorithm>
#include <charconv>

namespace syncscope::dmcluster {

namespace {

using nlohmann::json;

const char* typeName(const json& value) {
    switch (value.type()) {
        case json::value_t::null:
            return "null";
        case json::value_t::boolean:
            return "boolean";
        case json::value_t::number_integer:
        case json::value_t::number_unsigned:
            return "integer";
        case json::value_t::number_float:
            return "number";
        case json::value_t::string:
            return "string";
        case json::value_t::array:
            return "array";
        case json::value_t::object:
            return "object";
        default:
            return "something else";
    }
}

// One object of an answer with the path that leads to it, so that each refusal names its field.
class Node {
public:
    Node(const json& value, std::string path) : value_(value), path_(std::move(path)) {
        if (!value_.is_object()) {
            fail(path_, "object", value_);
        }
    }

    bool has(const char* key) const { return value_.contains(key) && !value_.at(key).is_null(); }
    std::string path(const char* key) const { return path_.empty() ? key : path_ + "." + key; }

    std::string text(const char* key) const { return get(key, "string", &json::is_string).get<std::string>(); }
    std::string optionalText(const char* key, std::string fallback = {}) const {
        return has(key) ? text(key) : fallback;
    }
    int64_t integer(const char* key) const { return get(key, "integer", &json::is_number_integer).get<int64_t>(); }
    bool boolean(const char* key) const { return get(key, "boolean", &json::is_boolean).get<bool>(); }
    void require(const char* key) const {
        if (!value_.contains(key)) {
            throw DmResponseError(path(key) + ": missing (DM's document requires it)");
        }
    }
    std::string oneOf(const char* key, std::initializer_list<const char*> allowed) const {
        std::string value = text(key);
        if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return value == a; })) {
            std::string list;
            for (const char* a : allowed) {
                list += (list.empty() ? "" : ", ") + std::string(a);
            }
            throw DmResponseError(path(key) + ": '" + value + "' is not one of " + list);
        }
        return value;
    }
    std::vector<std::string> texts(const char* key) const {
        std::vector<std::string> out;
        const json& list = get(key, "array", &json::is_array);
        for (size_t i = 0; i < list.size(); ++i) {
            if (!list[i].is_string()) {
                fail(path(key) + "[" + std::to_string(i) + "]", "string", list[i]);
            }
            out.push_back(list[i].get<std::string>());
        }
        return out;
    }
    // The objects of an array field, each with its path.
    std::vector<Node> objects(const char* key) const {
        std::vector<Node> out;
        const json& list = get(key, "array", &json::is_array);
        for (size_t i = 0; i < list.size(); ++i) {
            out.emplace_back(list[i], path(key) + "[" + std::to_string(i) + "]");
        }
        return out;
    }
    Node object(const char* key) const { return Node(get(key, "object", &json::is_object), path(key)); }

    [[noreturn]] static void fail(const std::string& path, const char* expected, const json& got) {
        throw DmResponseError((path.empty() ? std::string("the answer") : path) + ": expected " + expected + ", got " +
                              typeName(got));
    }

private:
    const json& get(const char* key, const char* expected, bool (json::*is)() const noexcept) const {
        auto it = value_.find(key);
        if (it == value_.end()) {
            throw DmResponseError(path(key) + ": missing (DM's document requires it)");
        }
        if (!((*it).*is)()) {
            fail(path(key), expected, *it);
        }
        return *it;
    }

    const json& value_;
    std::string path_;
};

// DM's task list and status answers: {"total": N, "data": [...]}.
std::vector<Node> listData(const json& answer) {
    Node root(answer, "");
    root.integer("total");
    return root.objects("data");
}

DmSyncStatus readSyncStatus(const Node& node) {
    DmSyncStatus sync;
    sync.totalEvents = node.integer("total_events");
    sync.totalTps = node.integer("total_tps");
    sync.recentTps = node.integer("recent_tps");
    sync.masterBinlog =
        parseLocation(node.text("master_binlog"), node.text("master_binlog_gtid"), node.path("master_binlog"));
    sync.syncerBinlog =
        parseLocation(node.text("syncer_binlog"), node.text("syncer_binlog_gtid"), node.path("syncer_binlog"));
    sync.blockingDdls = node.texts("blocking_ddls");
    for (const Node& group : node.objects("unresolved_groups")) {
        sync.unresolvedGroups.push_back(group.text("target"));
        group.texts("ddl_list");
        group.text("first_location");
        group.texts("synced");
        group.texts("unsynced");
    }
    sync.synced = node.boolean("synced");
    sync.binlogType = node.text("binlog_type");
    sync.secondsBehindMaster = node.integer("seconds_behind_master");
    node.integer("io_total_bytes");
    node.integer("dump_io_total_bytes");
    return sync;
}

DmSubtask readSubtask(const Node& node) {
    DmSubtask subtask;
    subtask.task = node.text("name");
    subtask.source = node.text("source_name");
    subtask.worker = node.text("worker_name");
    subtask.stage = node.oneOf("stage", {"Stopped", "Running", "Finished", "Paused"});
    subtask.unit = node.text("unit");
    subtask.unresolvedDdlLockId = node.optionalText("unresolved_ddl_lock_id");
    subtask.errorMessage = node.optionalText("error_msg");
    if (node.has("sync_status")) {
        subtask.sync = readSyncStatus(node.object("sync_status"));
    }
    for (const char* unit : {"load_status", "dump_status"}) {
        if (node.has(unit)) {
            Node status = node.object(unit);
            status.integer("bps");
            subtask.loadProgress = status.text("progress");
        }
    }
    return subtask;
}

DmTask readTask(const Node& node) {
    DmTask task;
    task.name = node.text("name");
    task.taskMode = node.oneOf("task_mode", {"full", "incremental", "all", "dump", "load"});
    if (node.has("shard_mode")) {
        task.shardMode = node.oneOf("shard_mode", {"pessimistic", "optimistic"});
    }
    // DM's own default (its document's example spells it dm-meta; the server uses dm_meta).
    task.metaSchema = node.optionalText("meta_schema", "dm_meta");
    node.boolean("enhance_online_schema_change");
    node.oneOf("on_duplicate", {"replace", "error", "ignore"});
    Node target = node.object("target_config");
    task.targetHost = target.text("host");
    task.targetPort = static_cast<int>(target.integer("port"));
    task.targetUser = target.text("user");
    target.require("password");  // required by the document; never read
    node.objects("table_migrate_rule");
    for (const Node& source : node.object("source_config").objects("source_conf")) {
        task.sources.push_back(source.text("source_name"));
    }
    if (node.has("status_list")) {
        for (const Node& status : node.objects("status_list")) {
            task.subtasks.push_back(readSubtask(status));
        }
    }
    return task;
}

}  // namespace

DmLocation parseLocation(const std::string& text, const std::string& gtid, const std::string& field) {
    DmLocation location;
    location.gtid = gtid;
    if (text.empty()) {
        return location;
    }
    const size_t comma = text.find(", ");
    if (text.front() != '(' || text.back() != ')' || comma == std::string::npos) {
        throw DmResponseError(field + ": '" + text + "' is not a location as DM writes one, (file, position)");
    }
    location.file = text.substr(1, comma - 1);
    const std::string pos = text.substr(comma + 2, text.size() - comma - 3);
    auto [end, error] = std::from_chars(pos.data(), pos.data() + pos.size(), location.pos);
    if (error != std::errc() || end != pos.data() + pos.size() || location.file.empty()) {
        throw DmResponseError(field + ": '" + text + "' is not a location as DM writes one, (file, position)");
    }
    return location;
}

std::vector<DmTask> readTaskList(const nlohmann::json& answer) {
    std::vector<DmTask> tasks;
    for (const Node& node : listData(answer)) {
        tasks.push_back(readTask(node));
    }
    return tasks;
}

std::vector<DmSubtask> readTaskStatus(const nlohmann::json& answer) {
    std::vector<DmSubtask> subtasks;
    for (const Node& node : listData(answer)) {
        subtasks.push_back(readSubtask(node));
    }
    return subtasks;
}

std::vector<DmSource> readSourceList(const nlohmann::json& answer) {
    std::vector<DmSource> sources;
    for (const Node& node : listData(answer)) {
        DmSource source;
        source.name = node.text("source_name");
        source.host = node.text("host");
        source.port = static_cast<int>(node.integer("port"));
        node.text("user");
        source.gtid = node.boolean("enable_gtid");
        source.enabled = node.boolean("enable");
        if (node.has("status_list")) {
            for (const Node& status : node.objects("status_list")) {
                status.text("source_name");
                source.workers.push_back(status.text("worker_name"));
            }
        }
        sources.push_back(std::move(source));
    }
    return sources;
}

std::vector<DmMaster> readMasterList(const nlohmann::json& answer) {
    std::vector<DmMaster> masters;
    for (const Node& node : listData(answer)) {
        masters.push_back({node.text("name"), node.text("addr"), node.boolean("alive"), node.boolean("leader")});
    }
    return masters;
}

std::vector<DmWorker> readWorkerList(const nlohmann::json& answer) {
    std::vector<DmWorker> workers;
    for (const Node& node : listData(answer)) {
        workers.push_back(
            {node.text("name"), node.text("addr"), node.text("bound_stage"), node.text("bound_source_name")});
    }
    return workers;
}

std::string errorMessageOf(const std::string& body) {
    json error = json::parse(body, nullptr, false);
    if (error.is_object() && error.contains("error_msg") && error["error_msg"].is_string()) {
        std::string code = error.contains("error_code") && error["error_code"].is_number_integer()
                               ? "[code " + std::to_string(error["error_code"].get<int64_t>()) + "] "
                               : std::string();
        return code + error["error_msg"].get<std::string>();
    }
    return body.empty() ? std::string("(no message)") : body;
}

}  // namespace syncscope::dmcluster
