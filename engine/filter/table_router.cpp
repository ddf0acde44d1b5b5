#include "engine/filter/table_router.h"

#include "engine/filter/filter_error.h"
#include "engine/filter/name_case.h"

namespace syncscope::filter {

TableRouter::TableRouter(const std::vector<RouteRule>& rules, bool caseSensitive) : caseSensitive_(caseSensitive) {
    for (const auto& rule : rules) {
        const std::string where = "route rule '" + rule.name + "': ";
        if (rule.schemaPattern.empty())
            throw FilterError(where + "schema-pattern is empty");
        try {
            rules_.push_back({rule, NamePattern(foldNameCase(rule.schemaPattern, caseSensitive)),
                              NamePattern(foldNameCase(rule.tablePattern, caseSensitive))});
        } catch (const FilterError& error) {
            throw FilterError(where + error.what());
        }
    }
}

TableName TableRouter::route(const TableName& upstream) const {
    const std::string schema = foldNameCase(upstream.schema, caseSensitive_);
    const std::string table = foldNameCase(upstream.table, caseSensitive_);
    std::vector<const CompiledRule*> schemaRules;
    std::vector<const CompiledRule*> tableRules;
    for (const auto& compiled : rules_) {
        if (!compiled.schema.matches(schema))
            continue;
        if (compiled.rule.tablePattern.empty()) {
            schemaRules.push_back(&compiled);
        } else if (compiled.table.matches(table)) {
            tableRules.push_back(&compiled);
        }
    }
    // A schema-level statement (empty table name) only takes schema-level routes, as in DM.
    const bool useTableRules = !upstream.table.empty() && !tableRules.empty();
    const auto& candidates = useTableRules ? tableRules : schemaRules;
    if (candidates.size() > 1) {
        throw FilterError(upstream.quoted() + " matches two " + (useTableRules ? "table" : "schema") +
                          "-level route rules, '" + candidates[0]->rule.name + "' and '" + candidates[1]->rule.name +
                          "'; DM refuses this too: make the patterns disjoint");
    }
    TableName downstream = upstream;
    if (!candidates.empty()) {
        const RouteRule& rule = candidates.front()->rule;
        if (!rule.targetSchema.empty())
            downstream.schema = rule.targetSchema;
        if (!rule.targetTable.empty() && !upstream.table.empty())
            downstream.table = rule.targetTable;
    }
    return downstream;
}

}  // namespace syncscope::filter
