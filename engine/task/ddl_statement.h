// What the syncer does with one statement from a QUERY event (a DDL, or something DM never replicates):
// classified by filter::DdlClassifier, then the block-allow list, the event filter and the routes
// decide whether it is applied (rewritten for routes), ignored, or an error. Never a guess.
#pragma once

#include <string>
#include <vector>

#include "engine/filter/table_name.h"
#include "engine/task/task_setup.h"

namespace syncscope::task {

struct DdlPlan {
    enum class Action { Apply, Ignore, Error };
    Action action = Action::Apply;
    std::string reason;  // why it is ignored or an error
    std::string sql;     // what runs downstream
    std::string defaultSchema;
    std::vector<filter::TableName> tables;

    std::string quotedDefaultSchema() const { return filter::TableName::quote(defaultSchema); }
};

// Block-allow list, event filter and routes applied to one DDL.
DdlPlan planDdl(const TaskSetup& setup, const std::string& defaultSchema, const std::string& sql);

}  // namespace syncscope::task
