#include "engine/schema/schema_tracker.h"

#include <algorithm>

namespace syncscope::schema {

namespace {

bool sameTableMap(const std::vector<binlog::ColumnDef>& a, const std::vector<binlog::ColumnDef>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
        return x.type == y.type && x.meta == y.meta && x.name == y.name && x.inPrimaryKey == y.inPrimaryKey &&
               x.nullable == y.nullable && x.isUnsigned == y.isUnsigned;
    });
}

bool hasColumnNames(const std::vector<binlog::ColumnDef>& columns) {
    return !columns.empty() &&
           std::all_of(columns.begin(), columns.end(), [](const auto& column) { return !column.name.empty(); });
}

bool hasPrimaryKey(const std::vector<binlog::ColumnDef>& columns) {
    return std::any_of(columns.begin(), columns.end(), [](const auto& column) { return column.inPrimaryKey; });
}

}  // namespace

std::shared_ptr<const TableSchema> SchemaTracker::schemaFor(const TableName& upstream, const TableName& target,
                                                            const std::vector<binlog::ColumnDef>& tableMapColumns) {
    std::lock_guard lock(mutex_);
    auto it = cache_.find(upstream);
    if (it != cache_.end() && it->second.target == target &&
        sameTableMap(it->second.tableMapColumns, tableMapColumns)) {
        return it->second.schema;
    }
    auto schema = build(upstream, target, tableMapColumns);
    cache_[upstream] = Entry{tableMapColumns, target, schema};
    return schema;
}

std::shared_ptr<const TableSchema> SchemaTracker::build(const TableName& upstream, const TableName& target,
                                                        const std::vector<binlog::ColumnDef>& tableMapColumns) {
    if (hasColumnNames(tableMapColumns)) {
        // The table map names the primary key but never unique keys; only the downstream can. The row
        // key of a table without a primary key comes from the downstream's not-null unique keys; every
        // unique index of the downstream is a causality key. With a primary key a downstream that cannot
        // be read leaves the primary key the only causality key (as before the indexes were known).
        std::optional<TableSchema> downstream;
        if (lookup_) {
            try {
                downstream = lookup_(target);
            } catch (const SchemaError&) {
                if (!hasPrimaryKey(tableMapColumns)) {
                    throw;
                }
            }
        }
        std::vector<std::vector<std::string>> uniqueKeys;
        if (!hasPrimaryKey(tableMapColumns) && downstream) {
            uniqueKeys = downstream->notNullUniqueKeyColumnNames();
        }
        auto schema = TableSchema::fromTableMap(target, tableMapColumns, uniqueKeys);
        if (downstream) {
            schema->adoptDownstreamFacts(*downstream);
            schema->judgeRowKeyAgainst(*downstream);
        }
        return std::make_shared<const TableSchema>(std::move(*schema));
    }

    std::optional<TableSchema> downstream = lookup_ ? lookup_(target) : std::nullopt;
    if (!downstream) {
        throw SchemaError("the binlog events of " + upstream.text() +
                          " carry no column names (binlog_row_metadata is not FULL) and the downstream table " +
                          target.text() +
                          " does not exist to read them from; create it downstream or set "
                          "binlog_row_metadata=FULL upstream");
    }
    if (downstream->columns().size() != tableMapColumns.size()) {
        throw SchemaError("the binlog events of " + upstream.text() + " have " +
                          std::to_string(tableMapColumns.size()) + " columns but the downstream table " +
                          target.text() + " has " + std::to_string(downstream->columns().size()) +
                          "; without column names in the binlog (binlog_row_metadata=FULL) the columns cannot be "
                          "matched: make the downstream table match the upstream one");
    }
    // Names and keys from the downstream, the physical types from the event that carries the values.
    std::vector<SchemaColumn> columns = downstream->columns();
    for (size_t i = 0; i < columns.size(); ++i) {
        columns[i].type = tableMapColumns[i].type;
    }
    auto schema = std::make_shared<TableSchema>(target, std::move(columns), downstream->primaryKey(),
                                                downstream->notNullUniqueKeys(), SchemaOrigin::Downstream);
    schema->adoptDownstreamFacts(*downstream);
    schema->judgeRowKeyAgainst(*downstream);
    return schema;
}

void SchemaTracker::forgetTable(const TableName& upstream) {
    std::lock_guard lock(mutex_);
    cache_.erase(upstream);
}

void SchemaTracker::forgetDatabase(const std::string& upstreamSchema) {
    std::lock_guard lock(mutex_);
    std::erase_if(cache_, [&](const auto& entry) { return entry.first.schema == upstreamSchema; });
}

void SchemaTracker::forgetAll() {
    std::lock_guard lock(mutex_);
    cache_.clear();
}

size_t SchemaTracker::cachedTables() const {
    std::lock_guard lock(mutex_);
    return cache_.size();
}

}  // namespace syncscope::schema
