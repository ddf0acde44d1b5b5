// The privileges the connecting user holds, from information_schema (global and per schema; grants on
// single tables and through roles are not read, so a user relying on them gets a finding to confirm).
#pragma once

#include <map>
#include <set>
#include <string>

namespace syncscope::precheck {

class SqlSession;

struct GrantFacts {
    std::string grantee;  // 'user'@'host' as CURRENT_USER() answers
    std::set<std::string> global;
    std::map<std::string, std::set<std::string>> bySchemaPattern;  // TABLE_SCHEMA as granted (may hold % and _)

    // Whether `privilege` (e.g. "SELECT") holds on every table of `schema`.
    bool holds(const std::string& privilege, const std::string& schema) const;
    bool holdsGlobally(const std::string& privilege) const { return global.count(privilege) != 0; }
};

GrantFacts readGrants(SqlSession& session);

// Whether a schema name in a GRANT (with % and _ wildcards, \ escapes) matches `schema`.
bool schemaPatternMatches(const std::string& pattern, const std::string& schema);

}  // namespace syncscope::precheck
