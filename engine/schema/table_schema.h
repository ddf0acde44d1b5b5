// The structure of one table as the apply layer needs it: column names and types, signedness,
// nullability, and the keys that let an UPDATE or DELETE find its row downstream.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "engine/binlog/column_def.h"
#include "engine/schema/table_name.h"

namespace syncscope::schema {

struct SchemaColumn {
    std::string name;
    binlog::ColumnType type = binlog::ColumnType::Null;
    std::string typeName;  // e.g. "int", "varchar" (information_schema DATA_TYPE); empty when unknown
    bool isUnsigned = false;
    bool nullable = true;
};

// How UPDATE and DELETE find their row. AllColumns is the last resort for tables with neither a
// primary key nor a not-null unique key: every column is compared and one row at a time is changed.
enum class RowKeyKind { PrimaryKey, UniqueKey, AllColumns };

const char* rowKeyKindName(RowKeyKind kind);

struct RowKey {
    RowKeyKind kind = RowKeyKind::AllColumns;
    std::string indexName;        // "PRIMARY", the unique key's name, or empty for AllColumns
    std::vector<size_t> columns;  // positions into TableSchema::columns
};

struct UniqueKey {
    std::string name;
    std::vector<size_t> columns;
};

// Where the structure came from, said in messages so the DBA knows what to check.
enum class SchemaOrigin { TableMap, Downstream, TableMapAndDownstreamKeys };

class TableSchema {
public:
    TableSchema(TableName name, std::vector<SchemaColumn> columns, std::vector<size_t> primaryKey,
                std::vector<UniqueKey> notNullUniqueKeys, SchemaOrigin origin);

    // From a TABLE_MAP with FULL metadata; nullopt when the event carries no column names.
    // The table map gives the primary key but never unique keys: pass those (by column name) when
    // they are known from the downstream, so a table without a primary key still gets a real key.
    static std::optional<TableSchema> fromTableMap(
        const TableName& name, const std::vector<binlog::ColumnDef>& columns,
        const std::vector<std::vector<std::string>>& uniqueKeyColumnNames = {});

    const TableName& name() const { return name_; }
    const std::vector<SchemaColumn>& columns() const { return columns_; }
    const std::vector<size_t>& primaryKey() const { return primaryKey_; }
    const std::vector<UniqueKey>& notNullUniqueKeys() const { return uniqueKeys_; }
    // The same keys as column names (what fromTableMap takes).
    std::vector<std::vector<std::string>> notNullUniqueKeyColumnNames() const;
    SchemaOrigin origin() const { return origin_; }

    // Primary key, else the first not-null unique key, else all columns.
    const RowKey& rowKey() const { return rowKey_; }
    // Every key whose values identify one row: the primary key and the not-null unique keys. Rows that
    // share a value of any of them must be applied in order (causality).
    const std::vector<std::vector<size_t>>& identifyingKeys() const { return identifyingKeys_; }

    // Every unique index of the downstream table (primary key and nullable ones included) as column
    // names; an index over a column prefix or an expression is an empty list. Only the downstream
    // loader fills it: a table map never says.
    const std::vector<std::vector<std::string>>& downstreamUniqueIndexes() const { return downstreamUniqueIndexes_; }
    void setDownstreamUniqueIndexes(std::vector<std::vector<std::string>> indexes) {
        downstreamUniqueIndexes_ = std::move(indexes);
    }
    // Whether the downstream table has triggers (an upsert fires INSERT triggers, then UPDATE ones).
    bool downstreamHasTriggers() const { return downstreamHasTriggers_; }
    void setDownstreamHasTriggers(bool value) { downstreamHasTriggers_ = value; }
    // Whether the downstream table's only unique index is exactly the row key, and it has no column of
    // its own and no trigger (false when unknown). Then changes to rows with different key values cannot collide
    // downstream: a batch may reorder them and merge updates into one INSERT ... ON DUPLICATE KEY UPDATE.
    bool rowKeyIsOnlyUniqueIndex() const { return rowKeyIsOnlyUniqueIndex_; }
    // Decides rowKeyIsOnlyUniqueIndex from the downstream table's structure.
    void judgeRowKeyAgainst(const TableSchema& downstream);

    std::optional<size_t> columnIndex(const std::string& columnName) const;
    // "schema.table (3 columns, key PRIMARY (id))" for messages.
    std::string describe() const;

private:
    TableName name_;
    std::vector<SchemaColumn> columns_;
    std::vector<size_t> primaryKey_;
    std::vector<UniqueKey> uniqueKeys_;
    SchemaOrigin origin_;
    RowKey rowKey_;
    std::vector<std::vector<size_t>> identifyingKeys_;  // computed once: asked for every row
    std::vector<std::vector<std::string>> downstreamUniqueIndexes_;
    bool downstreamHasTriggers_ = false;
    bool rowKeyIsOnlyUniqueIndex_ = false;
};

}  // namespace syncscope::schema
