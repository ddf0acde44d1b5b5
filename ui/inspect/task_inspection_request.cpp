#include "ui/inspect/task_inspection_request.h"

#include "engine/config/source_config.h"
#include "engine/config/task_config.h"

namespace syncscope::ui {

inspect::InspectionRequest inspectionRequestForTask(const std::string& taskPath, const std::string& sourcePath) {
    const config::TaskConfig taskConfig = config::loadTaskConfig(taskPath);
    const config::SourceConfig sourceConfig = config::loadSourceConfig(sourcePath);
    inspect::InspectionRequest request;
    request.target = taskConfig.targetDatabase.server;
    request.metaSchema = taskConfig.metaSchema;
    request.task = taskConfig.name;
    request.upstream = sourceConfig.from.server;
    request.upstreamSourceId = sourceConfig.sourceId;
    return request;
}

}  // namespace syncscope::ui
