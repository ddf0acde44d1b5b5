#include "engine/filter/block_allow_list.h"

#include <array>

#include "engine/filter/filter_error.h"
#include "engine/filter/name_case.h"

namespace syncscope::filter {

namespace {

NameMatcher makeMatcher(const std::string& entry, bool caseSensitive, const char* listName) {
    try {
        return NameMatcher(entry, caseSensitive);
    } catch (const FilterError& error) {
        throw FilterError(std::string(listName) + " entry '" + entry + "': " + error.what());
    }
}

}  // namespace

BlockAllowList::BlockAllowList(const BlockAllowRules& rules, bool caseSensitive) : caseSensitive_(caseSensitive) {
    for (const auto& db : rules.doDbs)
        doDbs_.push_back(makeMatcher(db, caseSensitive, "do-dbs"));
    for (const auto& db : rules.ignoreDbs)
        ignoreDbs_.push_back(makeMatcher(db, caseSensitive, "ignore-dbs"));
    for (const auto& t : rules.doTables) {
        doTables_.emplace_back(makeMatcher(t.schema, caseSensitive, "do-tables db-name"),
                               makeMatcher(t.table, caseSensitive, "do-tables tbl-name"));
    }
    for (const auto& t : rules.ignoreTables) {
        ignoreTables_.emplace_back(makeMatcher(t.schema, caseSensitive, "ignore-tables db-name"),
                                   makeMatcher(t.table, caseSensitive, "ignore-tables tbl-name"));
    }
}

bool BlockAllowList::isSystemSchema(std::string_view schema) {
    static constexpr std::array<std::string_view, 4> kSystemSchemas = {"mysql", "information_schema",
                                                                       "performance_schema", "sys"};
    const std::string folded = foldNameCase(schema, false);
    for (auto system : kSystemSchemas) {
        if (folded == system)
            return true;
    }
    return false;
}

bool BlockAllowList::anyMatches(const std::vector<NameMatcher>& matchers, const std::string& name) {
    for (const auto& matcher : matchers) {
        if (matcher.matches(name))
            return true;
    }
    return false;
}

bool BlockAllowList::anyMatches(const std::vector<TableMatcher>& matchers, const std::string& schema,
                                const std::string& table) {
    for (const auto& [schemaMatcher, tableMatcher] : matchers) {
        if (schemaMatcher.matches(schema) && tableMatcher.matches(table))
            return true;
    }
    return false;
}

bool BlockAllowList::allowsSchema(const std::string& schema) const {
    if (!doDbs_.empty())
        return anyMatches(doDbs_, schema);
    if (!ignoreDbs_.empty())
        return !anyMatches(ignoreDbs_, schema);
    return true;
}

bool BlockAllowList::allowsTable(const std::string& schema, const std::string& table) const {
    if (table.empty())
        return true;  // a schema-level statement is decided by the schema rules alone
    if (!doTables_.empty() && anyMatches(doTables_, schema, table))
        return true;
    if (!ignoreTables_.empty() && anyMatches(ignoreTables_, schema, table))
        return false;
    return doTables_.empty();
}

bool BlockAllowList::allows(const TableName& table) const {
    if (isSystemSchema(table.schema))
        return false;
    const std::string schema = foldNameCase(table.schema, caseSensitive_);
    const std::string name = foldNameCase(table.table, caseSensitive_);
    return allowsSchema(schema) && allowsTable(schema, name);
}

}  // namespace syncscope::filter
