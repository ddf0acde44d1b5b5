// What the precheck knows about the tables of one server, read from information_schema in a few
// queries (tables, columns, indexes, triggers, foreign keys, schema defaults), so that the table rules
// (table_rules.h) run on plain values.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/filter/table_name.h"

namespace syncscope::precheck {

class SqlSession;

struct ColumnFacts {
    std::string name;
    std::string columnType;  // COLUMN_TYPE, e.g. "varchar(20)", "int(10) unsigned"
    std::string dataType;    // DATA_TYPE, e.g. "varchar"
    bool nullable = true;
    std::string charset;    // empty for non-text columns
    std::string collation;  // empty for non-text columns
    bool generated = false;
    // COLUMN_DEFAULT as the server shows it (MariaDB quotes strings and shows an implicit NULL as NULL);
    // nullopt: no default.
    std::optional<std::string> defaultValue;
    bool autoIncrement = false;

    // "varchar(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL": what MODIFY needs.
    std::string definition() const;
};

struct IndexFacts {
    std::string name;
    bool unique = false;
    bool overPrefix = false;  // a column prefix (SUB_PART) is part of it
    std::vector<std::string> columns;
};

struct TriggerFacts {
    std::string name;
    std::string timing;  // BEFORE / AFTER
    std::string event;   // INSERT / UPDATE / DELETE
};

struct TableFacts {
    filter::TableName name;
    std::string tableType;  // BASE TABLE, SEQUENCE, SYSTEM VERSIONED
    std::string engine;
    std::string collation;
    std::vector<ColumnFacts> columns;
    std::vector<IndexFacts> indexes;
    std::vector<TriggerFacts> triggers;

    const ColumnFacts* column(const std::string& name) const;
    const IndexFacts* primaryKey() const;
    // The primary key, else the first unique index whose columns are all NOT NULL (the engine's row key).
    const IndexFacts* rowKey() const;
};

struct ForeignKeyFacts {
    std::string name;
    filter::TableName child;
    filter::TableName parent;
    std::string updateRule;  // CASCADE, SET NULL, RESTRICT, NO ACTION, SET DEFAULT
    std::string deleteRule;
};

struct SchemaFacts {
    std::string charset;
    std::string collation;
};

struct ServerFacts {
    std::map<std::string, SchemaFacts> schemas;
    std::vector<TableFacts> tables;  // ordered by schema and table
    std::vector<ForeignKeyFacts> foreignKeys;

    const TableFacts* table(const filter::TableName& name) const;
};

// Reads every non-system table for which `wanted` answers true (views are left out).
ServerFacts readServerFacts(SqlSession& session, const std::function<bool(const filter::TableName&)>& wanted);

}  // namespace syncscope::precheck
