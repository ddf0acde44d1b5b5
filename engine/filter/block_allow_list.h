// Decides which schemas and tables are replicated at all, with DM's block-allow semantics (those of
// MySQL's replicate-do-db / replicate-ignore-table options):
//   1. schema level: with do-dbs, the schema must match one of them; else with ignore-dbs, it must
//      match none. A schema-level statement (CREATE DATABASE: empty table name) stops here.
//   2. table level: a table matching do-tables is replicated; else one matching ignore-tables is not;
//      else it is replicated only when do-tables is empty.
// System schemas (mysql, information_schema, performance_schema, sys) are never replicated.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include "engine/filter/block_allow_rules.h"
#include "engine/filter/name_matcher.h"
#include "engine/filter/table_name.h"

namespace syncscope::filter {

class BlockAllowList {
public:
    // No rules: everything but the system schemas is replicated.
    BlockAllowList() = default;
    // Throws FilterError naming the bad entry when a pattern or regex is not valid.
    BlockAllowList(const BlockAllowRules& rules, bool caseSensitive);

    bool allows(const TableName& table) const;

    static bool isSystemSchema(std::string_view schema);

private:
    using TableMatcher = std::pair<NameMatcher, NameMatcher>;

    bool allowsSchema(const std::string& schema) const;
    bool allowsTable(const std::string& schema, const std::string& table) const;
    static bool anyMatches(const std::vector<NameMatcher>& matchers, const std::string& name);
    static bool anyMatches(const std::vector<TableMatcher>& matchers, const std::string& schema,
                           const std::string& table);

    bool caseSensitive_ = false;
    std::vector<NameMatcher> doDbs_;
    std::vector<NameMatcher> ignoreDbs_;
    std::vector<TableMatcher> doTables_;
    std::vector<TableMatcher> ignoreTables_;
};

}  // namespace syncscope::filter
