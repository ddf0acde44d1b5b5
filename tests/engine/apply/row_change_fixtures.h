// Small builders for the apply tests: tables with a chosen key and row changes on them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/apply/causality_keys.h"
#include "engine/apply/row_change.h"

namespace syncscope::apply::testing {

// Columns are INT unless named in textColumns; `key` lists primary key positions (empty: none).
inline std::shared_ptr<const schema::TableSchema> table(const std::string& db, const std::string& name,
                                                        const std::vector<std::string>& columns,
                                                        const std::vector<size_t>& key,
                                                        const std::vector<schema::UniqueKey>& uniqueKeys = {}) {
    std::vector<schema::SchemaColumn> schemaColumns;
    for (const auto& column : columns) {
        schemaColumns.push_back({column, binlog::ColumnType::Long, "int", false, true});
    }
    for (size_t position : key) {
        schemaColumns[position].nullable = false;
    }
    return std::make_shared<const schema::TableSchema>(schema::TableName{db, name}, schemaColumns, key, uniqueKeys,
                                                       schema::SchemaOrigin::TableMap);
}

// A table whose downstream twin has no unique index but the primary key: its changes may be
// reordered by key and its updates merged (DmlBuilder).
inline std::shared_ptr<const schema::TableSchema> soleKeyTable(const std::string& db, const std::string& name,
                                                               const std::vector<std::string>& columns,
                                                               const std::vector<size_t>& key) {
    schema::TableSchema made = *table(db, name, columns, key);
    schema::TableSchema downstream = made;
    std::vector<std::string> keyNames;
    for (size_t position : key) {
        keyNames.push_back(columns[position]);
    }
    downstream.setDownstreamUniqueIndexes({keyNames});
    made.judgeRowKeyAgainst(downstream);
    return std::make_shared<const schema::TableSchema>(std::move(made));
}

// The same with a VARCHAR key: the downstream compares it by a collation ('a' = 'A'), so only its
// type holds a batch back from reordering.
inline std::shared_ptr<const schema::TableSchema> textKeySoleTable(const std::string& db, const std::string& name) {
    schema::TableSchema made = *soleKeyTable(db, name, {"id", "v"}, {0});
    std::vector<schema::SchemaColumn> columns = made.columns();
    columns[0].type = binlog::ColumnType::VarChar;
    schema::TableSchema text(made.name(), columns, {0}, {}, schema::SchemaOrigin::TableMap);
    schema::TableSchema downstream = text;
    downstream.setDownstreamUniqueIndexes({{"id"}});
    text.judgeRowKeyAgainst(downstream);
    return std::make_shared<const schema::TableSchema>(std::move(text));
}

// A table with a primary key and, downstream, a second unique index over `uniqueColumns` (as bench-catchup's
// sysbench tables with a unique key on c): rows may collide on either.
inline std::shared_ptr<const schema::TableSchema> secondUniqueTable(const std::string& db, const std::string& name,
                                                                    const std::vector<std::string>& columns,
                                                                    const std::vector<size_t>& key,
                                                                    const std::vector<std::string>& uniqueColumns) {
    schema::TableSchema made = *table(db, name, columns, key);
    std::vector<std::string> keyNames;
    for (size_t position : key) {
        keyNames.push_back(columns[position]);
    }
    schema::TableSchema downstream = made;
    downstream.setDownstreamUniqueIndexes({keyNames, uniqueColumns});
    made.adoptDownstreamFacts(downstream);
    made.judgeRowKeyAgainst(downstream);
    return std::make_shared<const schema::TableSchema>(std::move(made));
}

// Gives each change the causality keys the worker pool dispatches it by (RowChange::keys).
inline void carryDispatchKeys(std::vector<RowChange>& changes) {
    for (RowChange& change : changes) {
        carryKeys(change, causalityKeys(change));
    }
}

inline std::vector<SqlValue> ints(std::initializer_list<long> values) {
    std::vector<SqlValue> row;
    for (long v : values) {
        row.push_back(SqlValue::signedInt(v));
    }
    return row;
}

inline RowChange insert(std::shared_ptr<const schema::TableSchema> t, std::vector<SqlValue> after, bool safe = false) {
    RowChange change;
    change.table = std::move(t);
    change.op = RowOp::Insert;
    change.after = std::move(after);
    change.safeMode = safe;
    change.setSource({"mysql-bin.000001", 1000, ""});
    return change;
}

inline RowChange update(std::shared_ptr<const schema::TableSchema> t, std::vector<SqlValue> before,
                        std::vector<SqlValue> after, bool safe = false) {
    RowChange change = insert(std::move(t), std::move(after), safe);
    change.op = RowOp::Update;
    change.before = std::move(before);
    return change;
}

inline RowChange erase(std::shared_ptr<const schema::TableSchema> t, std::vector<SqlValue> before, bool safe = false) {
    RowChange change = insert(std::move(t), {}, safe);
    change.op = RowOp::Delete;
    change.before = std::move(before);
    return change;
}

}  // namespace syncscope::apply::testing
