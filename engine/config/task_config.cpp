#include "engine/config/task_config.h"

#include <algorithm>
#include <sstream>

#include "engine/config/config_duration.h"
#include "engine/config/source_config.h"

namespace syncscope::config {

namespace {

std::string listOrDash(const std::vector<std::string>& names) {
    if (names.empty())
        return "-";
    std::string text;
    for (const auto& name : names)
        text += (text.empty() ? "" : ", ") + name;
    return text;
}

}  // namespace

InstanceSettings TaskConfig::instanceFor(const std::string& sourceId) const {
    const auto found = std::find_if(mysqlInstances.begin(), mysqlInstances.end(),
                                    [&](const MysqlInstanceConfig& instance) { return instance.sourceId == sourceId; });
    if (found == mysqlInstances.end()) {
        std::vector<std::string> known;
        for (const auto& instance : mysqlInstances)
            known.push_back(instance.sourceId);
        throw ConfigError(file, 0, "mysql-instances",
                          "task '" + name + "' has no instance with source-id '" + sourceId +
                              "' (it has: " + listOrDash(known) + "); the source file and the task must agree");
    }
    const MysqlInstanceConfig& instance = *found;
    InstanceSettings settings;
    settings.taskName = name;
    settings.sourceId = instance.sourceId;
    settings.meta = instance.meta;
    settings.caseSensitive = caseSensitive;
    if (!instance.blockAllowList.empty())
        settings.blockAllow = blockAllowLists.at(instance.blockAllowList);
    for (const auto& rule : instance.filterRules)
        settings.filters.push_back(filters.at(rule));
    for (const auto& rule : instance.routeRules)
        settings.routes.push_back(routes.at(rule));
    if (instance.syncer) {
        settings.syncer = *instance.syncer;
    } else if (!instance.syncerConfigName.empty()) {
        settings.syncer = syncers.at(instance.syncerConfigName);
    }
    if (instance.syncerThread)
        settings.syncer.workerCount = *instance.syncerThread;
    settings.load = instance.load.resolve(mydumpers, loaders);
    return settings;
}

InstanceSettings TaskConfig::instanceFor(const SourceConfig& source, std::vector<std::string>* warnings) const {
    InstanceSettings settings = instanceFor(source.sourceId);
    std::vector<filter::EventFilterRule> merged = source.filters;
    merged.insert(merged.end(), settings.filters.begin(), settings.filters.end());
    settings.filters = std::move(merged);
    if (warnings != nullptr && settings.syncer.enableGtid && *settings.syncer.enableGtid != source.enableGtid) {
        warnings->push_back(file + ": key 'syncer.enable-gtid': the task says " +
                            (*settings.syncer.enableGtid ? "true" : "false") + " but source file " + source.file +
                            " says " + (source.enableGtid ? "true" : "false") + "; the source file decides");
    }
    return settings;
}

std::string TaskConfig::describe() const {
    std::ostringstream text;
    text << "task " << name << " (" << taskMode << "), checkpoints in " << metaSchema << "." << name
         << "_syncer_checkpoint\n";
    if (onlineDdl) {
        text << "online schema changes (pt-osc, gh-ost) followed: shadow tables "
             << (shadowTableRules.empty() ? "DM's default" : listOrDash(shadowTableRules)) << ", trash tables "
             << (trashTableRules.empty() ? "DM's default" : listOrDash(trashTableRules)) << "\n";
    }
    text << "target " << targetDatabase.describe()
         << (targetDatabase.server.password.empty() ? " (no password)" : " (password set)") << "\n";
    for (const auto& instance : mysqlInstances) {
        const InstanceSettings settings = instanceFor(instance.sourceId);
        text << "source " << instance.sourceId << ": start ";
        if (!instance.meta) {
            text << "from the checkpoint, else the upstream's current position";
        } else if (!instance.meta->binlogGtid.empty()) {
            text << "from GTID " << instance.meta->binlogGtid;
        } else {
            text << "from " << instance.meta->binlogName << ":" << instance.meta->binlogPos;
        }
        text << "; block-allow-list " << (instance.blockAllowList.empty() ? "-" : instance.blockAllowList)
             << "; filters " << listOrDash(instance.filterRules) << "; routes " << listOrDash(instance.routeRules)
             << "; " << settings.syncer.workerCount << " workers, batch " << settings.syncer.batch
             << ", checkpoint every " << settings.syncer.checkpointFlushIntervalSeconds << "s, safe mode "
             << (settings.syncer.safeMode ? "always"
                                          : "after a resume for " + formatGoDuration(settings.syncer.safeModeDuration))
             << (settings.syncer.multipleRows ? ", multi-row statements" : "")
             << (settings.syncer.multipleRows && settings.syncer.compact ? ", a row's changes folded" : "") << "\n";
    }
    return text.str();
}

bool TaskConfig::sameSettings(const TaskConfig& other) const {
    return name == other.name && taskMode == other.taskMode && metaSchema == other.metaSchema &&
           caseSensitive == other.caseSensitive && onlineDdl == other.onlineDdl &&
           shadowTableRules == other.shadowTableRules && trashTableRules == other.trashTableRules &&
           targetDatabase == other.targetDatabase && mysqlInstances == other.mysqlInstances &&
           blockAllowLists == other.blockAllowLists && filters == other.filters && routes == other.routes &&
           syncers == other.syncers && mydumpers == other.mydumpers && loaders == other.loaders;
}

}  // namespace syncscope::config
