#include "engine/multisource/single_source_task.h"

#include <algorithm>

#include "engine/multisource/multi_source_plan.h"
#include "engine/multisource/paused_sources.h"
#include "engine/multisource/paused_sources_table.h"

namespace syncscope::multisource {

SingleSourceTask openSingleSourceTask(task::TaskSetup setup) {
    SingleSourceTask opened;
    const std::string file = pausedSourcesFileBeside(setup.auditLogPath, setup.taskName);
    auto table = std::make_shared<const PausedSourcesTable>(setup.downstream, setup.metaSchema, setup.taskName);
    std::shared_ptr<PausedSources> paused;
    try {
        table->read();  // the same read PausedSources makes: only to learn whether the downstream answers
        paused = std::make_shared<PausedSources>(file, table);
    } catch (const MultiSourceError& e) {
        if (!file.empty() && std::string(e.what()).find(file) != std::string::npos) {
            throw;  // the file beside the audit log is unreadable: that is not the downstream being away
        }
        std::string why = e.what();
        why.erase(std::min(why.size(), why.find("; nothing was started")));  // this start goes on
        opened.warning = "task " + setup.taskName + " starts without the pauses kept in the downstream: " + why +
                         (file.empty() ? std::string("; no copy beside an audit log either")
                                       : "; the copy in " + file + " is used alone");
        paused = std::make_shared<PausedSources>(file, nullptr);
    }
    opened.engine = std::make_shared<task::Task>(std::move(setup));
    opened.commands = std::make_shared<SourceSubtask>(opened.engine, std::move(paused));
    return opened;
}

}  // namespace syncscope::multisource
