#include "engine/multisource/single_source_task.h"

#include <algorithm>

#include "engine/multisource/multi_source_plan.h"
#include "engine/multisource/paused_sources.h"
#include "engine/multisource/paused_sources_table.h"

namespace syncscope::multisource {

SingleSourceTask openSingleSourceTask(task::TaskSetup setup) {
    SingleSourceTask opened;
    const std::string file = pausedSourcesFileBeside(setup.auditLogPath, setup.taskName);
    std::shared_ptr<const PausedSourcesTable> table =
        std::make_shared<const PausedSourcesTable>(setup.downstream, setup.metaSchema, setup.taskName);
    try {
        table->read();  // only to learn whether the downstream answers; PausedSources reads it again
    } catch (const MultiSourceError& e) {
        std::string why = e.what();
        why.erase(std::min(why.size(), why.find("; nothing was started")));  // this start goes on
        opened.warning = "task " + setup.taskName + " starts without the pauses kept in the downstream: " + why +
                         (file.empty() ? std::string("; no copy beside an audit log either")
                                       : "; the copy in " + file + " is used alone");
        table = nullptr;
    }
    // A pause file that exists but cannot be read throws here, naming it: nothing is started on a guess.
    auto paused = std::make_shared<PausedSources>(file, std::move(table));
    opened.engine = std::make_shared<task::Task>(std::move(setup));
    opened.commands = std::make_shared<SourceSubtask>(opened.engine, std::move(paused));
    return opened;
}

}  // namespace syncscope::multisource
