#include "engine/multisource/multi_source_plan.h"

#include <filesystem>
#include <fstream>
#include <map>

#include "engine/config/source_config.h"
#include "engine/task/task_setup_builder.h"

namespace syncscope::multisource {

namespace {

std::string givenSources(const std::map<std::string, std::string>& fileBySource) {
    std::string text;
    for (const auto& [sourceId, file] : fileBySource) {
        text += (text.empty() ? "" : ", ") + ("'" + sourceId + "' in " + file);
    }
    return text.empty() ? std::string("none") : text;
}

}  // namespace

MultiSourcePlan loadMultiSourcePlan(const std::string& taskFile, const std::vector<std::string>& sourceFiles) {
    if (sourceFiles.empty()) {
        throw MultiSourceError("task file " + taskFile +
                               ": no source file given (--source SOURCE.yaml, one per source)");
    }
    for (const std::string& file : sourceFiles) {
        if (!std::filesystem::exists(file)) {
            throw MultiSourceError("source file " + file + " does not exist (given for task file " + taskFile +
                                   "); nothing was started");
        }
        if (!std::ifstream(file)) {
            throw MultiSourceError("source file " + file + " cannot be read (given for task file " + taskFile +
                                   "); nothing was started");
        }
    }
    MultiSourcePlan plan;
    plan.task = config::loadTaskConfig(taskFile);

    std::map<std::string, config::SourceConfig> sourceById;
    std::map<std::string, std::string> fileBySource;
    for (const std::string& file : sourceFiles) {
        config::SourceConfig source = config::loadSourceConfig(file);
        if (auto seen = fileBySource.find(source.sourceId); seen != fileBySource.end()) {
            throw MultiSourceError("source files " + seen->second + " and " + file + " both have source-id '" +
                                   source.sourceId + "': give each source once; nothing was started");
        }
        fileBySource[source.sourceId] = file;
        sourceById.emplace(source.sourceId, std::move(source));
    }

    std::map<std::string, bool> inTask;
    for (const config::MysqlInstanceConfig& instance : plan.task.mysqlInstances) {
        inTask[instance.sourceId] = true;
        if (!sourceById.count(instance.sourceId)) {
            throw MultiSourceError("task " + plan.task.name + " (" + taskFile + "): mysql-instances source-id '" +
                                   instance.sourceId + "' has no source file: give --source with a file whose " +
                                   "source-id is '" + instance.sourceId + "' (given: " + givenSources(fileBySource) +
                                   "); nothing was started");
        }
    }
    for (const auto& [sourceId, file] : fileBySource) {
        if (!inTask.count(sourceId)) {
            throw MultiSourceError("source file " + file + " has source-id '" + sourceId + "', which task " +
                                   plan.task.name + " (" + taskFile +
                                   ") has no mysql-instances entry for; nothing was started");
        }
    }

    for (const config::MysqlInstanceConfig& instance : plan.task.mysqlInstances) {
        std::vector<std::string> warnings;
        plan.subtasks.push_back(task::makeTaskSetup(plan.task, sourceById.at(instance.sourceId), warnings));
        plan.sourceFiles.push_back(fileBySource.at(instance.sourceId));
        for (std::string& warning : warnings) {
            plan.warnings.push_back("source " + instance.sourceId + ": " + warning);
        }
    }
    return plan;
}

}  // namespace syncscope::multisource
