// Loading a task file: DM's keys, checked one by one, with every problem tied to its line.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "engine/config/config_rules.h"
#include "engine/config/task_config.h"
#include "engine/filter/filter_error.h"
#include "engine/filter/online_ddl_rules.h"

namespace syncscope::config {

namespace {

// MySQL identifiers are at most 64 characters, and the checkpoint table is "<task>_syncer_checkpoint".
constexpr size_t kMaxIdentifierLength = 64;
constexpr std::string_view kCheckpointTableSuffix = "_syncer_checkpoint";

const std::vector<std::string_view> kTopLevelKeys = {"name",
                                                     "task-mode",
                                                     "meta-schema",
                                                     "case-sensitive",
                                                     "online-ddl",
                                                     "online-ddl-scheme",
                                                     "shadow-table-rules",
                                                     "trash-table-rules",
                                                     "shard-mode",
                                                     "is-sharding",
                                                     "strict-optimistic-shard-mode",
                                                     "target-database",
                                                     "mysql-instances",
                                                     "block-allow-list",
                                                     "black-white-list",
                                                     "filters",
                                                     "routes",
                                                     "syncers",
                                                     "mydumpers",
                                                     "loaders",
                                                     "enable-gtid"};

// DM task keys that do not change what this engine replicates: accepted with a warning.
const std::vector<std::string_view> kUnusedTopLevelKeys = {"ignore-checking-items",
                                                           "enable-heartbeat",
                                                           "heartbeat-update-interval",
                                                           "heartbeat-report-interval",
                                                           "timezone",
                                                           "collation_compatible",
                                                           "mariadb2tidb",
                                                           "validators",
                                                           "clean-dump-file",
                                                           "ansi-quotes",
                                                           "remove-meta",
                                                           "experimental"};

const std::vector<std::string_view> kInstanceKeys = {"source-id",
                                                     "meta",
                                                     "block-allow-list",
                                                     "black-white-list",
                                                     "filter-rules",
                                                     "route-rules",
                                                     "syncer",
                                                     "syncer-config-name",
                                                     "syncer-thread",
                                                     "mydumper-config-name",
                                                     "mydumper",
                                                     "mydumper-thread",
                                                     "loader-config-name",
                                                     "loader",
                                                     "loader-thread"};

const std::vector<std::string_view> kUnusedInstanceKeys = {"validator-config-name"};

constexpr const char* kUnusedWhy = "a DM key that this version (incremental replication only) accepts and ignores";

// online-ddl, DM's older online-ddl-scheme, and the v6 rules for custom tools' table names (DM's
// subtask.go: "pt" and "gh-ost" turn online-ddl on, other schemes are an error; rules anchored).
void readOnlineDdl(ConfigReader& reader, const YAML::Node& root, TaskConfig& task) {
    if (auto value = ConfigReader::child(root, "online-ddl"); value.IsDefined()) {
        task.onlineDdl = reader.readBool(value, "online-ddl");
    }
    if (auto value = ConfigReader::child(root, "online-ddl-scheme"); value.IsDefined()) {
        std::string scheme = reader.readString(value, "online-ddl-scheme");
        if (scheme == "pt" || scheme == "gh-ost") {
            task.onlineDdl = true;
            reader.warn(value, "online-ddl-scheme",
                        "is deprecated in DM: write online-ddl: true instead (done so here)");
        } else if (!scheme.empty()) {
            reader.fail(value, "online-ddl-scheme", "'" + scheme + "' is not a scheme DM knows (\"pt\" or \"gh-ost\")");
        }
    }
    for (const auto& [key, rules] : {std::pair{"shadow-table-rules", &task.shadowTableRules},
                                     std::pair{"trash-table-rules", &task.trashTableRules}}) {
        const YAML::Node node = ConfigReader::child(root, key);
        if (!node.IsDefined()) {
            continue;
        }
        for (const std::string& rule : reader.readStringList(node, key)) {
            std::string anchoredRule = filter::OnlineDdlRules::anchored(rule);
            if (std::string problem = filter::OnlineDdlRules::problemWith(anchoredRule); !problem.empty()) {
                reader.fail(node, key, problem);
            }
            rules->push_back(anchoredRule);
        }
        if (!task.onlineDdl) {
            reader.warn(node, key, "ignored: online-ddl is not true");
        }
    }
}

// shard-mode (DM: "" none, "pessimistic", "optimistic"), the older is-sharding (true: pessimistic) and
// strict-optimistic-shard-mode (optimistic only).
void readShardMode(ConfigReader& reader, const YAML::Node& root, TaskConfig& task) {
    if (auto value = ConfigReader::child(root, "is-sharding"); value.IsDefined()) {
        if (reader.readBool(value, "is-sharding")) {
            task.shardMode = TaskConfig::kPessimisticShardMode;
            reader.warn(value, "is-sharding",
                        "is deprecated in DM: write shard-mode: pessimistic instead (done so here)");
        }
    }
    if (auto value = ConfigReader::child(root, "shard-mode"); value.IsDefined()) {
        std::string mode = reader.readString(value, "shard-mode");
        if (mode != TaskConfig::kPessimisticShardMode && mode != TaskConfig::kOptimisticShardMode && !mode.empty()) {
            reader.fail(value, "shard-mode",
                        "'" + mode + "' is not a shard mode DM knows (\"pessimistic\", \"optimistic\" or \"\")");
        }
        task.shardMode = mode;
    }
    if (auto value = ConfigReader::child(root, "strict-optimistic-shard-mode"); value.IsDefined()) {
        task.strictOptimisticShardMode = reader.readBool(value, "strict-optimistic-shard-mode");
        if (task.strictOptimisticShardMode && task.shardMode != TaskConfig::kOptimisticShardMode) {
            reader.warn(value, "strict-optimistic-shard-mode", "ignored: shard-mode is not optimistic");
        }
    }
}

// DM keys that would change the rows written downstream: refusing them beats silently ignoring them.
void refuseUnsupported(ConfigReader& reader, const YAML::Node& map, const std::string& path,
                       const std::vector<std::string_view>& keys) {
    for (const auto& entry : reader.entries(map, path)) {
        if (std::find(keys.begin(), keys.end(), entry.key) != keys.end()) {
            reader.fail(entry.line, ConfigReader::join(path, entry.key),
                        "this DM feature changes the rows written and is not supported by this version");
        }
    }
}

void readTaskMode(ConfigReader& reader, const YAML::Node& root, TaskConfig& task) {
    const YAML::Node mode = ConfigReader::child(root, "task-mode");
    if (!mode.IsDefined())
        reader.fail(root, "task-mode", "is required; use 'all', 'full' or 'incremental'");
    task.taskMode = reader.readNonEmptyString(mode, "task-mode");
    if (task.taskMode == TaskConfig::kIncrementalMode || task.taskMode == "all" || task.taskMode == "full")
        return;
    if (task.taskMode == "dump" || task.taskMode == "load" || task.taskMode == "load&sync") {
        reader.fail(
            mode, "task-mode",
            "task-mode '" + task.taskMode +
                "' is a DM mode with dump files this version does not have; use 'all', 'full' or 'incremental'");
    }
    reader.fail(mode, "task-mode", "unknown task-mode '" + task.taskMode + "'; use 'all', 'full' or 'incremental'");
}

template <typename Rule, typename ReadOne>
void readNamedRules(ConfigReader& reader, const YAML::Node& root, std::string_view section,
                    std::map<std::string, Rule>& rules, std::map<std::string, int>& lines, ReadOne readOne) {
    const YAML::Node node = ConfigReader::child(root, section);
    if (!node.IsDefined() || node.IsNull())
        return;
    for (const auto& entry : reader.entries(node, std::string(section))) {
        const std::string path = ConfigReader::join(std::string(section), entry.key);
        rules[entry.key] = readOne(entry.value, path, entry.key);
        lines[entry.key] = entry.line;
    }
}

// Reads a list of rule names and checks that each names an existing rule.
template <typename Rule>
std::vector<std::string> readRuleNames(ConfigReader& reader, const YAML::Node& node, const std::string& key,
                                       const std::map<std::string, Rule>& rules, std::string_view section,
                                       std::set<std::string>& used) {
    std::vector<std::string> names = reader.readStringList(node, key);
    for (size_t i = 0; i < names.size(); ++i) {
        const std::string itemKey = ConfigReader::indexed(key, i);
        if (!rules.contains(names[i])) {
            reader.fail(node[i], itemKey,
                        "names rule '" + names[i] + "', which is not defined under '" + std::string(section) + "'");
        }
        for (size_t j = 0; j < i; ++j) {
            if (names[j] == names[i])
                reader.fail(node[i], itemKey, "rule '" + names[i] + "' is listed twice");
        }
        used.insert(names[i]);
    }
    return names;
}

struct RuleUse {
    std::set<std::string> blockAllow, filters, routes, syncers, mydumpers, loaders;
};

MysqlInstanceConfig readInstance(ConfigReader& reader, const YAML::Node& node, const std::string& path,
                                 const TaskConfig& task, RuleUse& use) {
    refuseUnsupported(reader, node, path, {"column-mapping-rules", "expression-filters"});
    reader.checkKeys(node, path, kInstanceKeys, kUnusedInstanceKeys, kUnusedWhy);
    const auto key = [&](std::string_view k) { return ConfigReader::join(path, k); };
    MysqlInstanceConfig instance;

    const YAML::Node sourceId = ConfigReader::child(node, "source-id");
    if (!sourceId.IsDefined())
        reader.fail(node, key("source-id"), "is required");
    instance.sourceId = reader.readNonEmptyString(sourceId, key("source-id"));

    if (auto meta = ConfigReader::child(node, "meta"); meta.IsDefined() && !meta.IsNull()) {
        instance.meta = readBinlogStart(reader, meta, key("meta"));
    }

    YAML::Node list = ConfigReader::child(node, "block-allow-list");
    std::string listKey = key("block-allow-list");
    if (auto old = ConfigReader::child(node, "black-white-list"); old.IsDefined()) {
        if (list.IsDefined()) {
            reader.warn(old, key("black-white-list"), "ignored: block-allow-list is given too (DM's rule)");
        } else {
            list = old;
            listKey = key("black-white-list");
        }
    }
    if (list.IsDefined() && !list.IsNull()) {
        instance.blockAllowList = reader.readNonEmptyString(list, listKey);
        if (!task.blockAllowLists.contains(instance.blockAllowList)) {
            reader.fail(list, listKey,
                        "names block-allow-list '" + instance.blockAllowList +
                            "', which is not defined under 'block-allow-list'");
        }
        use.blockAllow.insert(instance.blockAllowList);
    }
    if (auto names = ConfigReader::child(node, "filter-rules"); names.IsDefined()) {
        instance.filterRules = readRuleNames(reader, names, key("filter-rules"), task.filters, "filters", use.filters);
    }
    if (auto names = ConfigReader::child(node, "route-rules"); names.IsDefined()) {
        instance.routeRules = readRuleNames(reader, names, key("route-rules"), task.routes, "routes", use.routes);
    }

    const YAML::Node syncer = ConfigReader::child(node, "syncer");
    const YAML::Node syncerName = ConfigReader::child(node, "syncer-config-name");
    if (syncer.IsDefined() && syncerName.IsDefined()) {
        reader.fail(syncerName, key("syncer-config-name"), "give either syncer or syncer-config-name, not both");
    }
    if (syncer.IsDefined())
        instance.syncer = readSyncerSettings(reader, syncer, key("syncer"));
    if (syncerName.IsDefined()) {
        instance.syncerConfigName = reader.readNonEmptyString(syncerName, key("syncer-config-name"));
        if (!task.syncers.contains(instance.syncerConfigName)) {
            reader.fail(syncerName, key("syncer-config-name"),
                        "names syncer '" + instance.syncerConfigName + "', which is not defined under 'syncers'");
        }
        use.syncers.insert(instance.syncerConfigName);
    }
    if (!syncer.IsDefined() && !syncerName.IsDefined() && !task.syncers.empty()) {
        reader.warn(node, path, "names no syncer (syncer-config-name), so DM's default syncer settings apply");
    }
    if (auto thread = ConfigReader::child(node, "syncer-thread"); thread.IsDefined()) {
        constexpr int64_t kMaxThreads = 1024;
        instance.syncerThread = static_cast<int>(reader.readInteger(thread, key("syncer-thread"), 1, kMaxThreads));
    }
    instance.load = readInstanceLoadRefs(reader, node, path, task.mydumpers, task.loaders,
                                         task.taskMode != TaskConfig::kIncrementalMode, use.mydumpers, use.loaders);
    return instance;
}

// Builds each instance's filters once, so that a rule combination that cannot work (two filter rules
// with the same patterns) is reported before anything starts.
void checkInstancesBuild(ConfigReader& reader, const YAML::Node& instances, const TaskConfig& task) {
    for (size_t i = 0; i < task.mysqlInstances.size(); ++i) {
        const std::string path = ConfigReader::indexed("mysql-instances", i);
        const InstanceSettings settings = task.instanceFor(task.mysqlInstances[i].sourceId);
        const YAML::Node node = instances[i];
        try {
            (void)settings.blockAllowList();
        } catch (const filter::FilterError& error) {
            reader.fail(node, ConfigReader::join(path, "block-allow-list"), error.what());
        }
        try {
            (void)settings.eventFilter();
        } catch (const filter::FilterError& error) {
            reader.fail(ConfigReader::child(node, "filter-rules"), ConfigReader::join(path, "filter-rules"),
                        error.what());
        }
        try {
            (void)settings.tableRouter();
        } catch (const filter::FilterError& error) {
            reader.fail(ConfigReader::child(node, "route-rules"), ConfigReader::join(path, "route-rules"),
                        error.what());
        }
    }
}

void warnUnused(ConfigReader& reader, std::string_view section, const std::map<std::string, int>& lines,
                const std::set<std::string>& used) {
    for (const auto& [name, line] : lines) {
        if (!used.contains(name)) {
            reader.warn(line, ConfigReader::join(std::string(section), name), "defined but no mysql-instance uses it");
        }
    }
}

}  // namespace

TaskConfig parseTaskConfig(const std::string& yamlText, const std::string& fileName) {
    TaskConfig task;
    task.file = fileName;
    ConfigReader reader(fileName, task.warnings, yamlText);
    YAML::Node root = reader.loadRootMap(yamlText, "task", "name, task-mode");

    refuseUnsupported(reader, root, "", {"column-mappings", "expression-filter"});
    reader.checkKeys(root, "", kTopLevelKeys, kUnusedTopLevelKeys, kUnusedWhy);

    const YAML::Node name = ConfigReader::child(root, "name");
    if (!name.IsDefined())
        reader.fail(root, "name", "is required");
    task.name = reader.readNonEmptyString(name, "name");
    if (task.name.size() + kCheckpointTableSuffix.size() > kMaxIdentifierLength) {
        reader.fail(name, "name",
                    "is too long: the checkpoint table '" + task.name + std::string(kCheckpointTableSuffix) +
                        "' would pass MySQL's 64-character limit");
    }
    readTaskMode(reader, root, task);
    if (auto meta = ConfigReader::child(root, "meta-schema"); meta.IsDefined()) {
        task.metaSchema = reader.readNonEmptyString(meta, "meta-schema");
        if (task.metaSchema.size() > kMaxIdentifierLength)
            reader.fail(meta, "meta-schema", "is longer than 64 characters");
    }
    if (auto value = ConfigReader::child(root, "case-sensitive"); value.IsDefined()) {
        task.caseSensitive = reader.readBool(value, "case-sensitive");
    }
    readOnlineDdl(reader, root, task);
    readShardMode(reader, root, task);
    if (auto value = ConfigReader::child(root, "enable-gtid"); value.IsDefined()) {
        (void)reader.readBool(value, "enable-gtid");
        reader.warn(value, "enable-gtid", "ignored: DM has no task-level enable-gtid; set it in the source file");
    }
    const std::string directory = std::filesystem::path(fileName).parent_path().string();
    const YAML::Node target = ConfigReader::child(root, "target-database");
    if (!target.IsDefined())
        reader.fail(root, "target-database", "is required");
    task.targetDatabase = readDatabaseConfig(reader, target, "target-database", directory);

    std::map<std::string, int> blockAllowLines, filterLines, routeLines, syncerLines, mydumperLines, loaderLines;
    const bool hasNewList = ConfigReader::child(root, "block-allow-list").IsDefined();
    if (hasNewList && ConfigReader::child(root, "black-white-list").IsDefined()) {
        reader.warn(ConfigReader::child(root, "black-white-list"), "black-white-list",
                    "ignored: block-allow-list is given too (DM's rule)");
    }
    readNamedRules(reader, root, hasNewList ? "block-allow-list" : "black-white-list", task.blockAllowLists,
                   blockAllowLines, [&](const YAML::Node& node, const std::string& path, const std::string&) {
                       return readBlockAllowRules(reader, node, path);
                   });
    readNamedRules(reader, root, "filters", task.filters, filterLines,
                   [&](const YAML::Node& node, const std::string& path, const std::string& ruleName) {
                       return readFilterRule(reader, node, path, ruleName);
                   });
    readNamedRules(reader, root, "routes", task.routes, routeLines,
                   [&](const YAML::Node& node, const std::string& path, const std::string& ruleName) {
                       return readRouteRule(reader, node, path, ruleName);
                   });
    readNamedRules(reader, root, "syncers", task.syncers, syncerLines,
                   [&](const YAML::Node& node, const std::string& path, const std::string&) {
                       return readSyncerSettings(reader, node, path);
                   });
    readNamedRules(reader, root, "mydumpers", task.mydumpers, mydumperLines,
                   [&](const YAML::Node& node, const std::string& path, const std::string&) {
                       return readMydumperSettings(reader, node, path);
                   });
    readNamedRules(reader, root, "loaders", task.loaders, loaderLines,
                   [&](const YAML::Node& node, const std::string& path, const std::string&) {
                       return readLoaderSettings(reader, node, path);
                   });

    const YAML::Node instances = ConfigReader::child(root, "mysql-instances");
    if (!instances.IsDefined())
        reader.fail(root, "mysql-instances", "is required: list the sources to replicate");
    if (!instances.IsSequence() || instances.size() == 0) {
        reader.fail(instances, "mysql-instances", "needs a list of at least one source (- source-id: ...)");
    }
    RuleUse use;
    std::set<std::string> sourceIds;
    for (size_t i = 0; i < instances.size(); ++i) {
        const std::string path = ConfigReader::indexed("mysql-instances", i);
        MysqlInstanceConfig instance = readInstance(reader, instances[i], path, task, use);
        if (!sourceIds.insert(instance.sourceId).second) {
            reader.fail(ConfigReader::child(instances[i], "source-id"), ConfigReader::join(path, "source-id"),
                        "source '" + instance.sourceId + "' is listed twice");
        }
        task.mysqlInstances.push_back(std::move(instance));
    }
    checkInstancesBuild(reader, instances, task);
    warnUnused(reader, hasNewList ? "block-allow-list" : "black-white-list", blockAllowLines, use.blockAllow);
    warnUnused(reader, "filters", filterLines, use.filters);
    warnUnused(reader, "routes", routeLines, use.routes);
    warnUnused(reader, "syncers", syncerLines, use.syncers);
    warnUnused(reader, "mydumpers", mydumperLines, use.mydumpers);
    warnUnused(reader, "loaders", loaderLines, use.loaders);
    return task;
}

TaskConfig loadTaskConfig(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw ConfigError(path, 0, "", "cannot open the task file");
    std::ostringstream text;
    text << in.rdbuf();
    return parseTaskConfig(text.str(), path);
}

}  // namespace syncscope::config
