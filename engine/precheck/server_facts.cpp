#include "engine/precheck/server_facts.h"

#include <algorithm>
#include <cctype>

#include "engine/precheck/sql_session.h"

namespace syncscope::precheck {

namespace {

constexpr const char* kSystemSchemas = "('mysql', 'information_schema', 'performance_schema', 'sys')";

std::string text(const SqlRow& row, size_t i) {
    return i < row.size() && row[i] ? *row[i] : std::string();
}

std::string upper(std::string value) {
    std::transform(value.begin(), value.end(), value.begin(), [](unsigned char c) { return std::toupper(c); });
    return value;
}

std::string key(const std::string& schema, const std::string& table) {
    return schema + '\0' + table;
}

}  // namespace

std::string ColumnFacts::definition() const {
    std::string text = columnType;
    if (!charset.empty()) {
        text += " CHARACTER SET " + charset;
    }
    if (!collation.empty()) {
        text += " COLLATE " + collation;
    }
    text += nullable ? " NULL" : " NOT NULL";
    return text;
}

const ColumnFacts* TableFacts::column(const std::string& name) const {
    for (const auto& c : columns) {
        if (c.name == name) {
            return &c;
        }
    }
    return nullptr;
}

const IndexFacts* TableFacts::primaryKey() const {
    for (const auto& index : indexes) {
        if (index.name == "PRIMARY") {
            return &index;
        }
    }
    return nullptr;
}

const IndexFacts* TableFacts::rowKey() const {
    if (const IndexFacts* primary = primaryKey()) {
        return primary;
    }
    for (const auto& index : indexes) {
        if (!index.unique || index.overPrefix) {
            continue;
        }
        bool allNotNull = std::all_of(index.columns.begin(), index.columns.end(), [&](const std::string& name) {
            const ColumnFacts* c = column(name);
            return c && !c->nullable;
        });
        if (allNotNull) {
            return &index;
        }
    }
    return nullptr;
}

const TableFacts* ServerFacts::table(const filter::TableName& name) const {
    for (const auto& t : tables) {
        if (t.name == name) {
            return &t;
        }
    }
    return nullptr;
}

ServerFacts readServerFacts(SqlSession& session, const std::function<bool(const filter::TableName&)>& wanted) {
    ServerFacts facts;
    for (const auto& row : session.query(std::string("SELECT SCHEMA_NAME, DEFAULT_CHARACTER_SET_NAME, "
                                                     "DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA "
                                                     "WHERE SCHEMA_NAME NOT IN ") +
                                         kSystemSchemas)) {
        facts.schemas[text(row, 0)] = {text(row, 1), text(row, 2)};
    }
    std::map<std::string, size_t> byName;
    for (const auto& row : session.query(std::string("SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE, ENGINE, "
                                                     "TABLE_COLLATION FROM information_schema.TABLES WHERE "
                                                     "TABLE_TYPE <> 'VIEW' AND TABLE_SCHEMA NOT IN ") +
                                         kSystemSchemas + " ORDER BY TABLE_SCHEMA, TABLE_NAME")) {
        filter::TableName name{text(row, 0), text(row, 1)};
        if (!wanted(name)) {
            continue;
        }
        byName[key(name.schema, name.table)] = facts.tables.size();
        facts.tables.push_back({name, text(row, 2), text(row, 3), text(row, 4), {}, {}, {}});
    }
    auto find = [&](const SqlRow& row) -> TableFacts* {
        auto it = byName.find(key(text(row, 0), text(row, 1)));
        return it == byName.end() ? nullptr : &facts.tables[it->second];
    };
    for (const auto& row :
         session.query(std::string("SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, "
                                   "DATA_TYPE, IS_NULLABLE, CHARACTER_SET_NAME, COLLATION_NAME, "
                                   "EXTRA, COLUMN_DEFAULT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA NOT IN ") +
                       kSystemSchemas + " ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION")) {
        if (TableFacts* table = find(row)) {
            std::string extra = upper(text(row, 8));
            bool generated = extra.find("GENERATED") != std::string::npos ||
                             extra.find("VIRTUAL") != std::string::npos ||
                             extra.find("PERSISTENT") != std::string::npos;
            table->columns.push_back({text(row, 2), text(row, 3), text(row, 4), text(row, 5) == "YES", text(row, 6),
                                      text(row, 7), generated, row.size() > 9 ? row[9] : std::nullopt,
                                      extra.find("AUTO_INCREMENT") != std::string::npos});
        }
    }
    for (const auto& row :
         session.query(std::string("SELECT TABLE_SCHEMA, TABLE_NAME, INDEX_NAME, NON_UNIQUE, "
                                   "COLUMN_NAME, SUB_PART FROM information_schema.STATISTICS WHERE "
                                   "TABLE_SCHEMA NOT IN ") +
                       kSystemSchemas + " ORDER BY TABLE_SCHEMA, TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX")) {
        TableFacts* table = find(row);
        if (!table) {
            continue;
        }
        std::string indexName = text(row, 2);
        if (table->indexes.empty() || table->indexes.back().name != indexName) {
            table->indexes.push_back({indexName, text(row, 3) == "0", false, {}});
        }
        table->indexes.back().columns.push_back(text(row, 4));
        table->indexes.back().overPrefix = table->indexes.back().overPrefix || row.at(5).has_value();
    }
    for (const auto& row : session.query(std::string("SELECT EVENT_OBJECT_SCHEMA, EVENT_OBJECT_TABLE, TRIGGER_NAME, "
                                                     "ACTION_TIMING, EVENT_MANIPULATION FROM "
                                                     "information_schema.TRIGGERS WHERE TRIGGER_SCHEMA NOT IN ") +
                                         kSystemSchemas + " ORDER BY TRIGGER_SCHEMA, TRIGGER_NAME")) {
        if (TableFacts* table = find(row)) {
            table->triggers.push_back({text(row, 2), text(row, 3), text(row, 4)});
        }
    }
    for (const auto& row : session.query(std::string("SELECT CONSTRAINT_SCHEMA, TABLE_NAME, CONSTRAINT_NAME, "
                                                     "UNIQUE_CONSTRAINT_SCHEMA, REFERENCED_TABLE_NAME, UPDATE_RULE, "
                                                     "DELETE_RULE FROM information_schema.REFERENTIAL_CONSTRAINTS "
                                                     "WHERE CONSTRAINT_SCHEMA NOT IN ") +
                                         kSystemSchemas + " ORDER BY CONSTRAINT_SCHEMA, CONSTRAINT_NAME")) {
        ForeignKeyFacts fk{
            text(row, 2), {text(row, 0), text(row, 1)}, {text(row, 3), text(row, 4)}, text(row, 5), text(row, 6)};
        if (byName.count(key(fk.child.schema, fk.child.table)) ||
            byName.count(key(fk.parent.schema, fk.parent.table))) {
            facts.foreignKeys.push_back(std::move(fk));
        }
    }
    return facts;
}

}  // namespace syncscope::precheck
