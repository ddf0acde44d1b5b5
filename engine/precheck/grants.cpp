#include "engine/precheck/grants.h"

#include "engine/precheck/sql_session.h"

namespace syncscope::precheck {

namespace {

bool matchFrom(const std::string& pattern, size_t p, const std::string& text, size_t t) {
    while (p < pattern.size()) {
        char c = pattern[p];
        if (c == '%') {
            for (size_t k = t; k <= text.size(); ++k) {
                if (matchFrom(pattern, p + 1, text, k)) {
                    return true;
                }
            }
            return false;
        }
        if (t >= text.size()) {
            return false;
        }
        if (c == '\\' && p + 1 < pattern.size()) {
            if (pattern[p + 1] != text[t]) {
                return false;
            }
            p += 2;
        } else {
            if (c != '_' && c != text[t]) {
                return false;
            }
            ++p;
        }
        ++t;
    }
    return t == text.size();
}

}  // namespace

bool schemaPatternMatches(const std::string& pattern, const std::string& schema) {
    return matchFrom(pattern, 0, schema, 0);
}

bool GrantFacts::holds(const std::string& privilege, const std::string& schema) const {
    if (holdsGlobally(privilege)) {
        return true;
    }
    for (const auto& [pattern, privileges] : bySchemaPattern) {
        if (privileges.count(privilege) && schemaPatternMatches(pattern, schema)) {
            return true;
        }
    }
    return false;
}

GrantFacts readGrants(SqlSession& session) {
    GrantFacts facts;
    std::string current = session.queryValue("SELECT CURRENT_USER()").value_or("");
    size_t at = current.rfind('@');
    std::string user = at == std::string::npos ? current : current.substr(0, at);
    std::string host = at == std::string::npos ? std::string("%") : current.substr(at + 1);
    facts.grantee = "'" + user + "'@'" + host + "'";
    for (const auto& row :
         session.query("SELECT PRIVILEGE_TYPE FROM information_schema.USER_PRIVILEGES WHERE GRANTEE = " +
                       sqlString(facts.grantee))) {
        if (!row.empty() && row[0]) {
            facts.global.insert(*row[0]);
        }
    }
    for (const auto& row :
         session.query("SELECT TABLE_SCHEMA, PRIVILEGE_TYPE FROM information_schema.SCHEMA_PRIVILEGES "
                       "WHERE GRANTEE = " +
                       sqlString(facts.grantee))) {
        if (row.size() >= 2 && row[0] && row[1]) {
            facts.bySchemaPattern[*row[0]].insert(*row[1]);
        }
    }
    return facts;
}

}  // namespace syncscope::precheck
