// Keeps the structure of every replicated table current while the stream runs: from each TABLE_MAP's
// FULL metadata when present (it always wins), else from the downstream table; forgotten at DDL so
// the next event reloads it after the DDL has been applied downstream.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "engine/binlog/column_def.h"
#include "engine/schema/downstream_schema_loader.h"
#include "engine/schema/table_schema.h"

namespace syncscope::schema {

class SchemaTracker {
public:
    // Reads a downstream table's structure; nullopt when the table does not exist. Throws SchemaError
    // when it cannot tell.
    using DownstreamLookup = std::function<std::optional<TableSchema>(const TableName& target)>;

    explicit SchemaTracker(DownstreamLookup lookup) : lookup_(std::move(lookup)) {}

    // The schema for the rows of `upstream`, applied to `target` (its name after routing). The result
    // is named after the target, because that is where the SQL goes. Throws SchemaError when neither
    // the table map nor the downstream can say what the columns are.
    std::shared_ptr<const TableSchema> schemaFor(const TableName& upstream, const TableName& target,
                                                 const std::vector<binlog::ColumnDef>& tableMapColumns);

    // Call on a DDL for the table (or database), before the next rows event of it.
    void forgetTable(const TableName& upstream);
    void forgetDatabase(const std::string& upstreamSchema);
    void forgetAll();

    size_t cachedTables() const;

private:
    struct Entry {
        std::vector<binlog::ColumnDef> tableMapColumns;  // what the cached schema was built from
        TableName target;
        std::shared_ptr<const TableSchema> schema;
    };

    std::shared_ptr<const TableSchema> build(const TableName& upstream, const TableName& target,
                                             const std::vector<binlog::ColumnDef>& tableMapColumns);

    DownstreamLookup lookup_;
    mutable std::mutex mutex_;
    std::unordered_map<TableName, Entry, TableNameHash> cache_;
};

}  // namespace syncscope::schema
