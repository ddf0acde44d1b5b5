// What the syncer does with one DDL from the binlog: which tables it touches (default database
// applied), its DM event name for the filters, and whether it is applied, ignored or an error.
// A small tokenizer, not a SQL parser: comments, backtick quoting and case are handled; a statement
// it cannot place is never guessed at.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/filter/table_name.h"
#include "engine/task/task_setup.h"

namespace syncscope::task {

struct DdlStatement {
    std::string eventName;                  // DM's event name ("create table", "alter table", ...); "" unknown
    std::vector<filter::TableName> tables;  // tables (or, table empty, databases) it changes
    bool isDdl = false;                     // false for GRANT, FLUSH, CREATE USER and other non-DDL statements
};

DdlStatement analyseDdl(std::string_view sql, const std::string& defaultSchema);

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
