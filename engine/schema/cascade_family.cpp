#include "engine/schema/cascade_family.h"

#include <cppconn/connection.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <set>

namespace syncscope::schema {

namespace {

const char* const kForeignKeysQuery =
    "SELECT CONSTRAINT_SCHEMA, TABLE_NAME, UNIQUE_CONSTRAINT_SCHEMA, REFERENCED_TABLE_NAME, CONSTRAINT_NAME, "
    "DELETE_RULE, UPDATE_RULE FROM information_schema.REFERENTIAL_CONSTRAINTS ORDER BY CONSTRAINT_SCHEMA, "
    "TABLE_NAME, CONSTRAINT_NAME";

bool inert(const std::string& rule) {
    return rule == "RESTRICT" || rule == "NO ACTION";
}

}  // namespace

bool ForeignKeyEdge::cascades() const {
    return !inert(deleteRule) || !inert(updateRule);
}

CascadeFamily cascadeFamilyOf(const TableName& table, const std::vector<ForeignKeyEdge>& edges) {
    CascadeFamily family;
    std::set<std::string> members{table.text()};
    std::vector<TableName> pending{table};
    while (!pending.empty()) {
        TableName current = pending.back();
        pending.pop_back();
        for (const ForeignKeyEdge& edge : edges) {
            if (!edge.cascades()) {
                continue;
            }
            for (const auto& [from, to] :
                 {std::pair{&edge.child, &edge.parent}, std::pair{&edge.parent, &edge.child}}) {
                if (*from == current && members.insert(to->text()).second) {
                    pending.push_back(*to);
                }
            }
            if (edge.parent == table) {
                family.cascadesToChildren = true;
            }
            if (edge.child == table) {
                family.changedByParents = true;
            }
        }
    }
    if (members.size() > 1) {
        family.name = *members.begin();
    }
    return family;
}

bool ddlMayChangeCascades(std::string_view sql) {
    std::string upper(sql);
    std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
    for (const char* word : {"REFERENCES", "FOREIGN", "DROP", "RENAME"}) {
        if (upper.find(word) != std::string::npos) {
            return true;
        }
    }
    return false;
}

std::vector<std::string> referencingForeignKeysOf(const TableName& table, const std::vector<ForeignKeyEdge>& edges) {
    std::vector<std::string> keys;
    for (const ForeignKeyEdge& edge : edges) {
        if (edge.parent == table) {
            keys.push_back(edge.child.text() + " (" + edge.name + ", ON DELETE " + edge.deleteRule + ")");
        }
    }
    return keys;
}

std::vector<ForeignKeyEdge> readForeignKeys(sql::Connection& connection) {
    std::vector<ForeignKeyEdge> edges;
    std::unique_ptr<sql::Statement> statement(connection.createStatement());
    std::unique_ptr<sql::ResultSet> rows(statement->executeQuery(kForeignKeysQuery));
    while (rows->next()) {
        edges.push_back({TableName{rows->getString(1), rows->getString(2)},
                         TableName{rows->getString(3), rows->getString(4)}, rows->getString(5), rows->getString(6),
                         rows->getString(7)});
    }
    return edges;
}

}  // namespace syncscope::schema
