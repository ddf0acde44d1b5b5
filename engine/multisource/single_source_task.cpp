#include "engine/multisource/single_source_task.h"

#include <algorithm>

#include "engine/multisource/multi_source_plan.h"
#include "engine/multisource/paused_sources.h"
#include "engine/multisource/paused_sources_table.h"

namespace syncscope::multisource {

SingleSourceTask openSingleSourceTask(task::TaskSetup setup) {
    SingleSourceTask opened;
    const std::string file = pausedSourcesFileBeside(setup.auditLogPath, setup.taskName);
    // The table is read once; a pause file that exists but cannot be read throws, naming it: nothing is started on
    // a guess.
    auto paused = std::make_shared<PausedSources>(
        file, std::make_shared<const PausedSourcesTable>(setup.downstream, setup.metaSchema, setup.taskName),
        PausedSources::TableMayBeUnreadable{});
    if (std::string why = paused->tableProblem(); !why.empty()) {
        if (paused->tableMayAnswerLater()) {
            opened.warning = "task " + setup.taskName +
                             ": the pauses kept in the downstream cannot be read yet: " + why + "; source " +
                             setup.sourceId + " starts once they are read";
        } else {
            why.erase(std::min(why.size(), why.find("; nothing was started")));  // this start goes on
            opened.warning = "task " + setup.taskName + " starts without the pauses kept in the downstream: " + why +
                             (file.empty() ? std::string("; no copy beside an audit log either")
                                           : "; the copy in " + file + " is used alone (a retry would not help)");
        }
    }
    opened.engine = std::make_shared<task::Task>(std::move(setup));
    opened.commands = std::make_shared<SourceSubtask>(opened.engine, std::move(paused));
    return opened;
}

}  // namespace syncscope::multisource
