// The precheck's view of online schema change tools (pt-online-schema-change, gh-ost): without online-ddl,
// a tool's shadow or trash table upstream means a change is running or was left behind, and the task will
// copy it downstream as an ordinary table; with online-ddl, the tool's tables are not the task's tables
// (they are never created downstream), and a running change is named.
#pragma once

#include <vector>

#include "engine/filter/online_ddl_rules.h"
#include "engine/precheck/finding.h"
#include "engine/precheck/table_rules.h"

namespace syncscope::precheck {

// `rules`: the task's (online-ddl on), or null (off: DM's default names are looked for).
std::vector<Finding> checkOnlineDdlTables(const std::vector<TableMapping>& mappings,
                                          const filter::OnlineDdlRules* rules);

// The mappings without the tools' shadow and trash tables (online-ddl on): they are never replicated.
std::vector<TableMapping> withoutToolTables(const std::vector<TableMapping>& mappings,
                                            const filter::OnlineDdlRules& rules);

}  // namespace syncscope::precheck
