#include "engine/precheck/online_ddl_tables.h"

namespace syncscope::precheck {

std::vector<Finding> checkOnlineDdlTables(const std::vector<TableMapping>& mappings,
                                          const filter::OnlineDdlRules* rules) {
    const filter::OnlineDdlRules defaults;
    const filter::OnlineDdlRules& names = rules != nullptr ? *rules : defaults;
    std::vector<Finding> findings;
    for (const TableMapping& mapping : mappings) {
        const filter::TableName& table = mapping.upstream;
        filter::OnlineDdlRole role = names.roleOf(table.table);
        if (role == filter::OnlineDdlRole::Real) {
            continue;
        }
        const filter::TableName real{table.schema, names.realNameOf(table.table)};
        const std::string tool = filter::OnlineDdlRules::toolOf(table.table);
        const std::string what = role == filter::OnlineDdlRole::Shadow ? "the shadow table" : "a trash table";
        if (rules == nullptr) {
            findings.push_back(
                {"online_ddl.tool_table",
                 Severity::Warning,
                 table.quoted(),
                 table.quoted() + " is named like " + what + " of " + tool + " altering " + real.quoted() +
                     ", and the task does not set online-ddl: true",
                 "the tool's table is replicated as an ordinary table: its whole copy of " + real.quoted() +
                     " is written downstream too (twice the rows and space while the change runs), and the task "
                     "behaves differently here than in DM, where online-ddl: true is the usual setting",
                 "online-ddl: true",
                 FixTarget::TaskFile,
                 {}});
        } else if (role == filter::OnlineDdlRole::Shadow) {
            findings.push_back(
                {"online_ddl.running_change",
                 Severity::Note,
                 real.quoted(),
                 "an online schema change of " + real.quoted() + " by " + tool + " is running or was left behind (" +
                     table.quoted() + " exists upstream)",
                 "online-ddl follows it: " + table.quoted() + " is never created downstream, and its DDLs run on " +
                     real.quoted() +
                     " at the tool's swap. A start from a point after its DDLs, with nothing recorded of them, is "
                     "refused naming the points to use",
                 "nothing to do; if the tool was stopped for good, drop " + table.quoted() + " upstream",
                 FixTarget::Upstream,
                 {}});
        }
    }
    return findings;
}

std::vector<TableMapping> withoutToolTables(const std::vector<TableMapping>& mappings,
                                            const filter::OnlineDdlRules& rules) {
    std::vector<TableMapping> kept;
    for (const TableMapping& mapping : mappings) {
        if (rules.roleOf(mapping.upstream.table) == filter::OnlineDdlRole::Real) {
            kept.push_back(mapping);
        }
    }
    return kept;
}

}  // namespace syncscope::precheck
