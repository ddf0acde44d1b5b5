#include "engine/task/task_setup_builder.h"

#include <memory>

namespace syncscope::task {

TaskSetup makeTaskSetup(const config::TaskConfig& task, const config::SourceConfig& source,
                        std::vector<std::string>& warnings) {
    config::InstanceSettings instance = task.instanceFor(source, &warnings);
    warnings.insert(warnings.end(), task.warnings.begin(), task.warnings.end());
    warnings.insert(warnings.end(), source.warnings.begin(), source.warnings.end());

    TaskSetup setup;
    setup.taskName = task.name;
    setup.metaSchema = task.metaSchema;
    setup.sourceId = source.sourceId;
    setup.taskFile = task.file;
    setup.upstream = source.from.server;
    setup.downstream = task.targetDatabase.server;
    setup.downstreamSession = task.targetDatabase.sessionVariables;
    setup.enableGtid = source.enableGtid;
    setup.flavor = source.flavor.empty() ? std::string(config::SourceConfig::kMariadbFlavor) : source.flavor;
    if (instance.meta) {
        setup.metaBinlogName = instance.meta->binlogName;
        setup.metaBinlogPos = instance.meta->binlogPos;
        setup.metaBinlogGtid = instance.meta->binlogGtid;
    }
    setup.syncer = instance.syncer;
    setup.taskMode = task.taskMode;
    setup.loadThreads = static_cast<size_t>(instance.load.workers());
    if (auto rows = instance.load.chunkRows()) {
        setup.loadChunkRows = *rows;
    }
    setup.loadChunkBytes = instance.load.chunkBytes().value_or(0);
    setup.loadStatementBytes = instance.load.mydumper.statementSize.value_or(0);
    setup.loadOnDuplicate = instance.load.loader.onDuplicate;
    setup.blockAllow = std::make_shared<const filter::BlockAllowList>(instance.blockAllowList());
    setup.eventFilter = std::make_shared<const filter::EventFilter>(instance.eventFilter());
    setup.router = std::make_shared<const filter::TableRouter>(instance.tableRouter());
    if (task.onlineDdl) {
        setup.onlineDdl = std::make_shared<const filter::OnlineDdlRules>(task.shadowTableRules, task.trashTableRules);
    }
    return setup;
}

}  // namespace syncscope::task
