#include "ui/main/task_files_setup.h"

#include <spdlog/spdlog.h>

#include <vector>

#include "engine/task/task_setup_builder.h"

namespace syncscope::ui {

TaskFilesSetup readTaskFilesSetup(const QString& taskPath, const QString& sourcePath) {
    TaskFilesSetup result;
    try {
        config::TaskConfig taskConfig = config::loadTaskConfig(taskPath.toStdString());
        config::SourceConfig sourceConfig = config::loadSourceConfig(sourcePath.toStdString());
        std::vector<std::string> warnings;
        result.setup = task::makeTaskSetup(taskConfig, sourceConfig, warnings);
        result.known = true;
    } catch (const std::exception& e) {
        result.problem = std::string("the task's files could not be read: ") + e.what();
        spdlog::warn("{}", result.problem);
    }
    return result;
}

}  // namespace syncscope::ui
