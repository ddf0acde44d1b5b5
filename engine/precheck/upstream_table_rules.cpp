// The upstream half of table_rules.h: keys, key collations, sequences, types, merging routes.
#include <algorithm>
#include <array>
#include <map>
#include <string_view>

#include "engine/precheck/table_rules.h"

namespace syncscope::precheck {

namespace {

constexpr std::string_view kCaseInsensitiveSuffix = "_ci";
constexpr const char* kInvisibleRowIdColumn = "syncscope_row_id";

bool endsWith(const std::string& text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string columnList(const std::vector<std::string>& columns) {
    std::string text;
    for (const auto& c : columns) {
        text += (text.empty() ? "" : ", ") + filter::TableName::quote(c);
    }
    return text;
}

void checkKeys(const TableFacts& table, std::vector<Finding>& findings) {
    const std::string name = table.name.quoted();
    const IndexFacts* rowKey = table.rowKey();
    if (!rowKey) {
        findings.push_back(sqlFinding(
            "table.no_key", Severity::Warning, name,
            "the table has no primary key and no unique key over NOT NULL columns",
            "the engine finds a row downstream by comparing every column (one row per statement, a full scan "
            "without an index) and applies all of the table's changes on one worker; two identical rows cannot be "
            "told apart, so an insert replayed in safe mode after an unclean stop may add a duplicate row",
            FixTarget::Upstream,
            {"ALTER TABLE " + name + " ADD COLUMN " + filter::TableName::quote(kInvisibleRowIdColumn) +
             " BIGINT UNSIGNED NOT NULL AUTO_INCREMENT INVISIBLE, ADD PRIMARY KEY (" +
             filter::TableName::quote(kInvisibleRowIdColumn) + ")"},
            "or add a PRIMARY KEY over columns that identify a row; the DDL replicates downstream"));
    }
    for (const auto& index : table.indexes) {
        if (!index.unique || index.name == "PRIMARY" || index.overPrefix) {
            continue;
        }
        std::vector<const ColumnFacts*> nullable;
        for (const auto& columnName : index.columns) {
            const ColumnFacts* c = table.column(columnName);
            if (c && c->nullable) {
                nullable.push_back(c);
            }
        }
        if (nullable.empty()) {
            continue;
        }
        std::vector<std::string> statements;
        std::string modify;
        for (const ColumnFacts* c : nullable) {
            ColumnFacts notNull = *c;
            notNull.nullable = false;
            modify += (modify.empty() ? "" : ", ") + std::string("MODIFY ") + filter::TableName::quote(c->name) + " " +
                      notNull.definition();
        }
        statements.push_back("ALTER TABLE " + name + " " + modify);
        findings.push_back(sqlFinding(
            "table.nullable_unique_key", Severity::Warning, name,
            "unique key " + filter::TableName::quote(index.name) + " (" + columnList(index.columns) + ") allows NULL",
            std::string(rowKey ? ""
                               : "the engine cannot use it to find rows (NULLs repeat), so it compares every "
                                 "column; ") +
                "it still keeps changes that share a non-NULL value of it in order, but a NULL in it tells no two "
                "rows apart",
            FixTarget::Upstream, statements, "set the NULLs to values first (UPDATE ... WHERE col IS NULL)"));
    }
    std::vector<const ColumnFacts*> insensitive;
    for (const auto& index : table.indexes) {
        if (!index.unique) {
            continue;
        }
        for (const auto& columnName : index.columns) {
            const ColumnFacts* c = table.column(columnName);
            if (c && endsWith(c->collation, kCaseInsensitiveSuffix) &&
                std::find(insensitive.begin(), insensitive.end(), c) == insensitive.end()) {
                insensitive.push_back(c);
            }
        }
    }
    if (!insensitive.empty()) {
        std::string modify;
        std::string names;
        for (const ColumnFacts* c : insensitive) {
            ColumnFacts binary = *c;
            binary.collation = c->charset + "_bin";
            modify += (modify.empty() ? "" : ", ") + std::string("MODIFY ") + filter::TableName::quote(c->name) + " " +
                      binary.definition();
            names += (names.empty() ? "" : ", ") + filter::TableName::quote(c->name) + " (" + c->collation + ")";
        }
        findings.push_back(sqlFinding(
            "table.ci_key", Severity::Note, name, "key columns compare case-insensitively: " + names,
            "'a' and 'A' are one key value: the engine orders their changes as one row and keeps their order in "
            "multiple-rows batches; the downstream table must use the same collation, or a case-sensitive one "
            "there lets two rows exist that the upstream calls one",
            FixTarget::Upstream, {"ALTER TABLE " + name + " " + modify},
            "only when keys should be case-sensitive; otherwise keep the collation equal on both sides"));
    }
}

}  // namespace

bool isSupportedDataType(const std::string& dataType) {
    static constexpr std::array<std::string_view, 43> kSupported = {"tinyint",
                                                                    "smallint",
                                                                    "mediumint",
                                                                    "int",
                                                                    "bigint",
                                                                    "decimal",
                                                                    "float",
                                                                    "double",
                                                                    "bit",
                                                                    "date",
                                                                    "datetime",
                                                                    "timestamp",
                                                                    "time",
                                                                    "year",
                                                                    "char",
                                                                    "varchar",
                                                                    "binary",
                                                                    "varbinary",
                                                                    "tinyblob",
                                                                    "blob",
                                                                    "mediumblob",
                                                                    "longblob",
                                                                    "tinytext",
                                                                    "text",
                                                                    "mediumtext",
                                                                    "longtext",
                                                                    "enum",
                                                                    "set",
                                                                    "json",
                                                                    "geometry",
                                                                    "point",
                                                                    "linestring",
                                                                    "polygon",
                                                                    "multipoint",
                                                                    "multilinestring",
                                                                    "multipolygon",
                                                                    "geometrycollection",
                                                                    "inet4",
                                                                    "inet6",
                                                                    "uuid",
                                                                    "vector",
                                                                    "real",
                                                                    "numeric"};
    std::string lower = dataType;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    return std::find(kSupported.begin(), kSupported.end(), lower) != kSupported.end();
}

std::vector<Finding> checkUpstreamTables(const ServerFacts& upstream, const std::vector<TableMapping>& mappings) {
    std::vector<Finding> findings;
    for (const auto& mapping : mappings) {
        const TableFacts* table = upstream.table(mapping.upstream);
        if (!table) {
            continue;
        }
        const std::string name = table->name.quoted();
        if (table->tableType == "SEQUENCE") {
            findings.push_back({"table.sequence",
                                Severity::Warning,
                                name,
                                "the table is a SEQUENCE, which this version does not replicate",
                                "NEXTVAL and SETVAL upstream change nothing downstream: a downstream that takes "
                                "over after a switch hands out values the upstream already used",
                                "block-allow-list:\n  <your rule>:\n    ignore-tables:\n      - db-name: \"" +
                                    table->name.schema + "\"\n        tbl-name: \"" + table->name.table +
                                    "\"\n# and create the sequence downstream with its current value",
                                FixTarget::TaskFile,
                                {}});
            continue;
        }
        for (const auto& column : table->columns) {
            if (!isSupportedDataType(column.dataType)) {
                findings.push_back({"table.unsupported_type",
                                    Severity::Error,
                                    name,
                                    "column " + filter::TableName::quote(column.name) + " has type " +
                                        column.columnType + ", which the engine does not decode",
                                    "the first row event of this table stops the task with a decode error",
                                    "leave the table out of the task (block-allow-list ignore-tables: db-name: \"" +
                                        table->name.schema + "\", tbl-name: \"" + table->name.table + "\")",
                                    FixTarget::TaskFile,
                                    {}});
            }
        }
        checkKeys(*table, findings);
    }
    return findings;
}

std::vector<Finding> checkRoutes(const std::vector<TableMapping>& mappings) {
    std::map<std::string, std::vector<const TableMapping*>> byTarget;
    for (const auto& mapping : mappings) {
        byTarget[mapping.downstream.quoted()].push_back(&mapping);
    }
    std::vector<Finding> findings;
    for (const auto& [target, sources] : byTarget) {
        if (sources.size() < 2) {
            continue;
        }
        std::string names;
        for (const TableMapping* mapping : sources) {
            names += (names.empty() ? "" : ", ") + mapping->upstream.quoted();
        }
        findings.push_back(
            {"route.merged_tables",
             Severity::Warning,
             target,
             "routes merge " + std::to_string(sources.size()) + " upstream tables into " + target + ": " + names,
             "rows of all of them land in one table: a key value used in two of them makes the second insert "
             "replace or fail on the first (1062), a delete in one removes the other's row, and a DDL on any of "
             "them changes the shared table",
             "give each upstream table its own target-table in its route rule, or make the keys disjoint (e.g. "
             "add the source table's id to the primary key on both sides)",
             FixTarget::TaskFile,
             {}});
    }
    return findings;
}

}  // namespace syncscope::precheck
