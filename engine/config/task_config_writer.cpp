// Writing a task file in DM's format (the GUI's New Task dialog), readable by loadTaskConfig and by DM.
#include <yaml-cpp/yaml.h>

#include "engine/config/config_rules.h"
#include "engine/config/task_config.h"

namespace syncscope::config {

namespace {

void writeNameList(YAML::Emitter& out, const char* key, const std::vector<std::string>& names) {
    if (names.empty())
        return;
    out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const auto& name : names)
        out << YAML::DoubleQuoted << name;
    out << YAML::EndSeq;
}

void writeInstance(YAML::Emitter& out, const MysqlInstanceConfig& instance) {
    out << YAML::BeginMap;
    out << YAML::Key << "source-id" << YAML::Value << YAML::DoubleQuoted << instance.sourceId;
    if (instance.meta) {
        out << YAML::Key << "meta" << YAML::Value << YAML::BeginMap;
        writeBinlogStart(out, *instance.meta);
        out << YAML::EndMap;
    }
    if (!instance.blockAllowList.empty()) {
        out << YAML::Key << "block-allow-list" << YAML::Value << YAML::DoubleQuoted << instance.blockAllowList;
    }
    writeNameList(out, "filter-rules", instance.filterRules);
    writeNameList(out, "route-rules", instance.routeRules);
    if (!instance.syncerConfigName.empty()) {
        out << YAML::Key << "syncer-config-name" << YAML::Value << YAML::DoubleQuoted << instance.syncerConfigName;
    }
    if (instance.syncer) {
        out << YAML::Key << "syncer" << YAML::Value << YAML::BeginMap;
        writeSyncerSettings(out, *instance.syncer);
        out << YAML::EndMap;
    }
    if (instance.syncerThread)
        out << YAML::Key << "syncer-thread" << YAML::Value << *instance.syncerThread;
    writeInstanceLoadRefs(out, instance.load);
    out << YAML::EndMap;
}

template <typename Rule, typename WriteOne>
void writeSection(YAML::Emitter& out, const char* section, const std::map<std::string, Rule>& rules,
                  WriteOne writeOne) {
    if (rules.empty())
        return;
    out << YAML::Key << section << YAML::Value << YAML::BeginMap;
    for (const auto& [name, rule] : rules) {
        out << YAML::Key << name << YAML::Value << YAML::BeginMap;
        writeOne(out, rule);
        out << YAML::EndMap;
    }
    out << YAML::EndMap;
}

}  // namespace

std::string toYaml(const TaskConfig& task) {
    YAML::Emitter out;
    out << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << YAML::DoubleQuoted << task.name;
    out << YAML::Key << "task-mode" << YAML::Value << task.taskMode;
    out << YAML::Key << "meta-schema" << YAML::Value << YAML::DoubleQuoted << task.metaSchema;
    if (task.caseSensitive)
        out << YAML::Key << "case-sensitive" << YAML::Value << true;
    if (task.onlineDdl)
        out << YAML::Key << "online-ddl" << YAML::Value << true;
    if (!task.shardMode.empty())
        out << YAML::Key << "shard-mode" << YAML::Value << YAML::DoubleQuoted << task.shardMode;
    if (task.strictOptimisticShardMode)
        out << YAML::Key << "strict-optimistic-shard-mode" << YAML::Value << true;
    for (const auto& [key, rules] : {std::pair{"shadow-table-rules", &task.shadowTableRules},
                                     std::pair{"trash-table-rules", &task.trashTableRules}}) {
        if (rules->empty())
            continue;
        out << YAML::Key << key << YAML::Value << YAML::BeginSeq;
        for (const std::string& rule : *rules)
            out << YAML::DoubleQuoted << rule;
        out << YAML::EndSeq;
    }
    out << YAML::Key << "target-database" << YAML::Value << YAML::BeginMap;
    writeDatabaseConfig(out, task.targetDatabase);
    out << YAML::EndMap;
    out << YAML::Key << "mysql-instances" << YAML::Value << YAML::BeginSeq;
    for (const auto& instance : task.mysqlInstances)
        writeInstance(out, instance);
    out << YAML::EndSeq;
    writeSection(out, "block-allow-list", task.blockAllowLists, writeBlockAllowRules);
    writeSection(out, "filters", task.filters, writeFilterRule);
    writeSection(out, "routes", task.routes, writeRouteRule);
    writeSection(out, "syncers", task.syncers, writeSyncerSettings);
    writeSection(out, "mydumpers", task.mydumpers, writeMydumperSettings);
    writeSection(out, "loaders", task.loaders, writeLoaderSettings);
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

}  // namespace syncscope::config
