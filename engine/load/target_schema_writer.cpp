#include "engine/load/target_schema_writer.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include <algorithm>
#include <memory>
#include <set>

#include "engine/load/literal_row_reader.h"
#include "engine/load/load_error.h"

namespace syncscope::load {

namespace {

constexpr std::string_view kCreateTable = "CREATE TABLE ";

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

// The columns of every table of `tables`' schemas in one query (it runs while writers wait on the lock).
std::map<std::string, std::vector<ColumnShape>> upstreamColumns(source::UpstreamConnection& upstream,
                                                                const std::vector<LoadTable>& tables) {
    std::set<std::string> schemas;
    for (const LoadTable& table : tables) {
        schemas.insert(sqlString(table.upstream.schema));
    }
    std::string list;
    for (const std::string& schema : schemas) {
        list += (list.empty() ? "" : ", ") + schema;
    }
    std::map<std::string, std::vector<ColumnShape>> columns;
    for (const auto& row :
         upstream.query("SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS "
                        "WHERE TABLE_SCHEMA IN (" +
                        list + ") ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION")) {
        TableName name{row[0].value_or(""), row[1].value_or("")};
        columns[name.quoted()].push_back({row[2].value_or(""), row[3].value_or("")});
    }
    return columns;
}

std::vector<ColumnShape> downstreamColumns(sql::Connection& downstream, const TableName& table) {
    std::unique_ptr<sql::PreparedStatement> statement(downstream.prepareStatement(
        "SELECT COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? "
        "ORDER BY ORDINAL_POSITION"));
    statement->setString(1, table.schema);
    statement->setString(2, table.table);
    std::unique_ptr<sql::ResultSet> result(statement->executeQuery());
    std::vector<ColumnShape> columns;
    while (result->next()) {
        columns.push_back({std::string(result->getString(1)), std::string(result->getString(2))});
    }
    return columns;
}

// Each difference in words: "column `c` is int(11) upstream and bigint(20) downstream".
std::vector<std::string> differences(const std::vector<ColumnShape>& up, const std::vector<ColumnShape>& down) {
    std::vector<std::string> found;
    auto find = [](const std::vector<ColumnShape>& columns, const std::string& name) {
        return std::find_if(columns.begin(), columns.end(),
                            [&](const ColumnShape& c) { return lower(c.name) == lower(name); });
    };
    for (size_t i = 0; i < up.size(); ++i) {
        auto other = find(down, up[i].name);
        if (other == down.end()) {
            found.push_back("column " + TableName::quote(up[i].name) + " (" + up[i].type + ") is missing downstream");
        } else if (lower(other->type) != lower(up[i].type)) {
            found.push_back("column " + TableName::quote(up[i].name) + " is " + up[i].type + " upstream and " +
                            other->type + " downstream");
        } else if (static_cast<size_t>(other - down.begin()) != i) {
            found.push_back("column " + TableName::quote(up[i].name) + " is at position " + std::to_string(i + 1) +
                            " upstream and " + std::to_string(other - down.begin() + 1) + " downstream");
        }
    }
    for (const auto& column : down) {
        if (find(up, column.name) == up.end()) {
            found.push_back("column " + TableName::quote(column.name) + " (" + column.type +
                            ") exists only downstream");
        }
    }
    return found;
}

void execute(sql::Connection& downstream, const std::string& sql, const std::string& what) {
    try {
        std::unique_ptr<sql::Statement> statement(downstream.createStatement());
        statement->execute(sql);
    } catch (const sql::SQLException& e) {
        throw LoadError("schema: " + what + " failed on the target database: " + e.what() + " [" +
                            std::to_string(e.getErrorCode()) + "] (" + sql + ")",
                        false);
    }
}

}  // namespace

std::string renamedCreateTable(const std::string& showCreateTable, const TableName& target) {
    if (showCreateTable.compare(0, kCreateTable.size(), kCreateTable) != 0 ||
        showCreateTable.size() <= kCreateTable.size() || showCreateTable[kCreateTable.size()] != '`') {
        throw LoadError("schema: SHOW CREATE TABLE gave text that does not start with CREATE TABLE `name`: " +
                        showCreateTable.substr(0, kCreateTable.size() + 64));
    }
    size_t i = kCreateTable.size() + 1;
    while (i < showCreateTable.size()) {
        if (showCreateTable[i] == '`') {
            if (i + 1 < showCreateTable.size() && showCreateTable[i + 1] == '`') {
                i += 2;
                continue;
            }
            break;
        }
        ++i;
    }
    return "CREATE TABLE IF NOT EXISTS " + target.quoted() + showCreateTable.substr(i + 1);
}

TableDefinitions readTableDefinitions(source::UpstreamConnection& upstream, const std::vector<LoadTable>& tables) {
    TableDefinitions definitions;
    if (tables.empty()) {
        return definitions;
    }
    auto columns = upstreamColumns(upstream, tables);
    for (const LoadTable& table : tables) {
        auto create = upstream.query("SHOW CREATE TABLE " + table.upstream.quoted());
        if (create.empty() || create.front().size() < 2 || !create.front()[1]) {
            throw LoadError("schema: SHOW CREATE TABLE " + table.upstream.quoted() + " returned nothing");
        }
        definitions[table.upstream.quoted()] = {*create.front()[1], columns[table.upstream.quoted()]};
    }
    return definitions;
}

void writeTargetSchemas(sql::Connection& downstream, const std::vector<LoadTable>& tables,
                        const TableDefinitions& definitions, const std::vector<std::string>& copiedBefore) {
    execute(downstream, "SET SESSION foreign_key_checks = 0", "turning foreign key checks off");
    for (const LoadTable& table : tables) {
        auto definition = definitions.find(table.upstream.quoted());
        if (definition == definitions.end()) {
            throw LoadError("schema: no definition was read for upstream table " + table.upstream.quoted());
        }
        // Several upstream tables routed to one target (a shard merge) must each match it.
        const std::vector<ColumnShape>& up = definition->second.columns;
        std::vector<ColumnShape> down = downstreamColumns(downstream, table.target);
        if (down.empty()) {
            execute(downstream, "CREATE DATABASE IF NOT EXISTS " + TableName::quote(table.target.schema),
                    "creating database " + TableName::quote(table.target.schema));
            downstream.setSchema(table.target.schema);
            execute(downstream, renamedCreateTable(definition->second.createTable, table.target),
                    "creating " + table.target.quoted() + " (from upstream " + table.upstream.quoted() + ")");
            continue;
        }
        std::vector<std::string> found = differences(up, down);
        if (found.empty()) {
            continue;
        }
        std::string list;
        for (const auto& difference : found) {
            list += (list.empty() ? "" : "; ") + difference;
        }
        if (std::find(copiedBefore.begin(), copiedBefore.end(), table.upstream.quoted()) != copiedBefore.end()) {
            throw LoadError("schema: upstream table " + table.upstream.quoted() +
                            " was changed by DDL since the load copied its first chunks into " + table.target.quoted() +
                            " (" + list +
                            "): its remaining chunks would be read with the new definition into a table of the old "
                            "one. Start the load over: stop the task, drop the load's target tables and start it "
                            "again with --remove-meta (a new snapshot sees the new definition); keep DDL away from "
                            "the loaded tables until the load has finished");
        }
        throw LoadError("schema: the target table " + table.target.quoted() + " exists and differs from upstream " +
                        table.upstream.quoted() + ": " + list +
                        ". Make the downstream table match (or drop it so the load creates it), then resume");
    }
}

std::vector<TableName> targetsHoldingRows(sql::Connection& downstream, const std::vector<LoadTable>& tables) {
    std::vector<TableName> holding;
    std::set<std::string> seen;  // a shard merge routes several tables to one target
    for (const LoadTable& table : tables) {
        if (!seen.insert(table.target.quoted()).second) {
            continue;
        }
        try {
            std::unique_ptr<sql::Statement> statement(downstream.createStatement());
            std::unique_ptr<sql::ResultSet> result(
                statement->executeQuery("SELECT 1 FROM " + table.target.quoted() + " LIMIT 1"));
            if (result->next()) {
                holding.push_back(table.target);
            }
        } catch (const sql::SQLException& e) {
            throw LoadError("schema: reading target table " + table.target.quoted() + " failed: " + e.what() + " [" +
                                std::to_string(e.getErrorCode()) + "]",
                            false);
        }
    }
    return holding;
}

}  // namespace syncscope::load
