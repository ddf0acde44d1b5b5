// Maps an upstream table to its downstream table with DM's route semantics: a table-level rule
// (with table-pattern) beats a schema-level rule; two matching rules of the same level are an error,
// not a guess; an empty target keeps the upstream name; no matching rule keeps both names.
#pragma once

#include <vector>

#include "engine/filter/name_pattern.h"
#include "engine/filter/route_rule.h"
#include "engine/filter/table_name.h"

namespace syncscope::filter {

class TableRouter {
public:
    TableRouter() = default;
    // Throws FilterError naming the rule when a pattern is not valid or the schema-pattern is empty.
    TableRouter(const std::vector<RouteRule>& rules, bool caseSensitive);

    // Throws FilterError naming the table and both rules when two rules of one level match it.
    TableName route(const TableName& upstream) const;

    bool empty() const { return rules_.empty(); }

private:
    struct CompiledRule {
        RouteRule rule;
        NamePattern schema;
        NamePattern table;
    };

    bool caseSensitive_ = false;
    std::vector<CompiledRule> rules_;
};

}  // namespace syncscope::filter
