// The structure of one table as the apply layer needs it: column names and types, signedness,
// nullability, and the keys that let an UPDATE or DELETE find its row downstream.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/binlog/column_def.h"
#include "engine/schema/cascade_family.h"
#include "engine/schema/table_name.h"

namespace syncscope::schema {

struct SchemaColumn {
    std::string name;
    binlog::ColumnType type = binlog::ColumnType::Null;
    std::string typeName;  // e.g. "int", "varchar" (information_schema DATA_TYPE); empty when unknown
    bool isUnsigned = false;
    bool nullable = true;
    // A generated (virtual or stored) column downstream: its value is computed there, never written.
    bool generated = false;
    // A column of a replayed row that the downstream no longer has (a DDL of the replay window dropped
    // it before): never written (engine/task/replayed_rows.h).
    bool absentDownstream = false;
    // The downstream column's collation (information_schema.COLUMNS), empty when not text or not known.
    std::string collation{};
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
    // The columns INSERT and UPDATE write: all but the generated ones, in table order.
    const std::vector<size_t>& writtenColumns() const { return writtenColumns_; }
    const std::vector<size_t>& primaryKey() const { return primaryKey_; }
    const std::vector<UniqueKey>& notNullUniqueKeys() const { return uniqueKeys_; }
    // The same keys as column names (what fromTableMap takes).
    std::vector<std::vector<std::string>> notNullUniqueKeyColumnNames() const;
    SchemaOrigin origin() const { return origin_; }

    // Primary key, else the first not-null unique key, else all columns.
    const RowKey& rowKey() const { return rowKey_; }
    // Every key on which two rows may collide downstream: the primary key, the not-null unique keys and
    // every other unique index of the downstream table (nullable ones too; a NULL collides with
    // nothing). Rows that share a value of any of them must be applied in order (causality, docs/design.md
    // invariant 8). The row key comes first.
    const std::vector<std::vector<size_t>>& identifyingKeys() const { return identifyingKeys_; }
    // True when a downstream unique index cannot be hashed from the row's values (over a column prefix,
    // an expression, or only columns the upstream does not have): then every change of the table is
    // one causality key, so its changes keep their order on one worker.
    bool causalityByWholeTable() const { return causalityByWholeTable_; }

    // Every unique index of the downstream table (primary key and nullable ones included) as column
    // names; an index over a column prefix or an expression is an empty list. Only the downstream
    // loader fills it: a table map never says. Setting it adds these indexes to identifyingKeys().
    const std::vector<std::vector<std::string>>& downstreamUniqueIndexes() const { return downstreamUniqueIndexes_; }
    void setDownstreamUniqueIndexes(std::vector<std::vector<std::string>> indexes);
    // Takes what only the downstream table can say (unique indexes, triggers, referencing foreign keys,
    // generated columns, collations) from its structure as the loader read it; columns are matched by name.
    void adoptDownstreamFacts(const TableSchema& downstream);
    // The downstream's foreign keys that reference this table, as "`db`.`child` (fk_name, ON DELETE
    // CASCADE)": a DELETE of a row here (and so a REPLACE) may cascade to them.
    const std::vector<std::string>& referencingForeignKeys() const { return referencingForeignKeys_; }
    void setReferencingForeignKeys(std::vector<std::string> keys) { referencingForeignKeys_ = std::move(keys); }
    // The downstream tables this one is tied to by cascading foreign keys (engine/schema/cascade_family.h):
    // their changes are one causality key, and a DELETE or UPDATE of a parent runs with the upstream's
    // foreign_key_checks so that the downstream cascades as the upstream did.
    const CascadeFamily& cascadeFamily() const { return cascadeFamily_; }
    void setCascadeFamily(CascadeFamily family) { cascadeFamily_ = std::move(family); }
    // Whether the downstream table has triggers (an upsert fires INSERT triggers, then UPDATE ones).
    bool downstreamHasTriggers() const { return downstreamHasTriggers_; }
    void setDownstreamHasTriggers(bool value) { downstreamHasTriggers_ = value; }
    // Whether the downstream table's only unique index is exactly the row key, and it has no column of
    // its own and no trigger (false when unknown). Then changes to rows with different key values cannot collide
    // downstream: a batch may reorder them and merge updates into one INSERT ... ON DUPLICATE KEY UPDATE.
    bool rowKeyIsOnlyUniqueIndex() const { return rowKeyIsOnlyUniqueIndex_; }
    // Whether the downstream table has columns the upstream's does not (true until judged): a DELETE and
    // INSERT of a row resets them to their defaults where an UPDATE keeps them.
    bool downstreamHasOwnColumns() const { return downstreamHasOwnColumns_; }
    // Decides rowKeyIsOnlyUniqueIndex and downstreamHasOwnColumns from the downstream table's structure.
    void judgeRowKeyAgainst(const TableSchema& downstream);

    std::optional<size_t> columnIndex(const std::string& columnName) const;
    // The same structure with these columns never written (SchemaColumn::absentDownstream).
    TableSchema leavingOut(const std::vector<std::string>& columnNames) const;
    // "schema.table (3 columns, key PRIMARY (id))" for messages.
    std::string describe() const;

private:
    TableName name_;
    std::vector<SchemaColumn> columns_;
    std::vector<size_t> writtenColumns_;
    std::vector<size_t> primaryKey_;
    std::vector<UniqueKey> uniqueKeys_;
    SchemaOrigin origin_;
    RowKey rowKey_;
    void computeIdentifyingKeys();
    void computeWrittenColumns();

    std::vector<std::vector<size_t>> identifyingKeys_;  // computed once: asked for every row
    bool causalityByWholeTable_ = false;
    std::vector<std::vector<std::string>> downstreamUniqueIndexes_;
    std::vector<std::string> referencingForeignKeys_;
    CascadeFamily cascadeFamily_;
    bool downstreamHasTriggers_ = false;
    bool rowKeyIsOnlyUniqueIndex_ = false;
    bool downstreamHasOwnColumns_ = true;
};

}  // namespace syncscope::schema
