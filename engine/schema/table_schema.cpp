#include "engine/schema/table_schema.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace syncscope::schema {

const char* rowKeyKindName(RowKeyKind kind) {
    switch (kind) {
        case RowKeyKind::PrimaryKey:
            return "primary key";
        case RowKeyKind::UniqueKey:
            return "not-null unique key";
        case RowKeyKind::AllColumns:
            return "all columns (the table has no primary key and no not-null unique key)";
    }
    return "unknown key";
}

TableSchema::TableSchema(TableName name, std::vector<SchemaColumn> columns, std::vector<size_t> primaryKey,
                         std::vector<UniqueKey> notNullUniqueKeys, SchemaOrigin origin)
    : name_(std::move(name)),
      columns_(std::move(columns)),
      primaryKey_(std::move(primaryKey)),
      uniqueKeys_(std::move(notNullUniqueKeys)),
      origin_(origin) {
    if (!primaryKey_.empty()) {
        rowKey_ = {RowKeyKind::PrimaryKey, "PRIMARY", primaryKey_};
    } else if (!uniqueKeys_.empty()) {
        rowKey_ = {RowKeyKind::UniqueKey, uniqueKeys_.front().name, uniqueKeys_.front().columns};
    } else {
        rowKey_.kind = RowKeyKind::AllColumns;
        for (size_t i = 0; i < columns_.size(); ++i) {
            rowKey_.columns.push_back(i);
        }
    }
    computeIdentifyingKeys();
    computeWrittenColumns();
}

void TableSchema::computeWrittenColumns() {
    writtenColumns_.clear();
    for (size_t i = 0; i < columns_.size(); ++i) {
        if (!columns_[i].generated && !columns_[i].absentDownstream) {
            writtenColumns_.push_back(i);
        }
    }
}

void TableSchema::computeIdentifyingKeys() {
    identifyingKeys_.clear();
    causalityByWholeTable_ = false;
    if (!primaryKey_.empty()) {
        identifyingKeys_.push_back(primaryKey_);
    }
    for (const auto& key : uniqueKeys_) {
        identifyingKeys_.push_back(key.columns);
    }
    if (identifyingKeys_.empty()) {
        identifyingKeys_.push_back(rowKey_.columns);
    }
    auto sorted = [](std::vector<size_t> columns) {
        std::sort(columns.begin(), columns.end());
        return columns;
    };
    for (const auto& index : downstreamUniqueIndexes_) {
        // Only the columns both sides have: rows equal in the whole index are equal in any part of it,
        // so hashing a part finds every collision (and a few more, which cost parallelism only).
        std::vector<size_t> positions;
        for (const auto& columnName : index) {
            if (auto position = columnIndex(columnName)) {
                positions.push_back(*position);
            }
        }
        if (positions.empty()) {
            causalityByWholeTable_ = true;  // a prefix or expression index, or one of downstream-only columns
            continue;
        }
        bool known = std::any_of(identifyingKeys_.begin(), identifyingKeys_.end(),
                                 [&](const auto& key) { return sorted(key) == sorted(positions); });
        if (!known) {
            identifyingKeys_.push_back(std::move(positions));
        }
    }
}

void TableSchema::setDownstreamUniqueIndexes(std::vector<std::vector<std::string>> indexes) {
    downstreamUniqueIndexes_ = std::move(indexes);
    computeIdentifyingKeys();
}

void TableSchema::adoptDownstreamFacts(const TableSchema& downstream) {
    setDownstreamUniqueIndexes(downstream.downstreamUniqueIndexes());
    downstreamHasTriggers_ = downstream.downstreamHasTriggers();
    referencingForeignKeys_ = downstream.referencingForeignKeys();
    cascadeFamily_ = downstream.cascadeFamily();
    for (SchemaColumn& column : columns_) {
        if (auto position = downstream.columnIndex(column.name)) {
            column.generated = downstream.columns()[*position].generated;
            column.collation = downstream.columns()[*position].collation;
        }
    }
    computeWrittenColumns();
}

std::optional<TableSchema> TableSchema::fromTableMap(
    const TableName& name, const std::vector<binlog::ColumnDef>& columns,
    const std::vector<std::vector<std::string>>& uniqueKeyColumnNames) {
    std::vector<SchemaColumn> schemaColumns;
    std::vector<size_t> primaryKey;
    schemaColumns.reserve(columns.size());
    for (size_t i = 0; i < columns.size(); ++i) {
        const auto& def = columns[i];
        if (def.name.empty()) {
            return std::nullopt;
        }
        schemaColumns.push_back({def.name, def.type, {}, def.isUnsigned, def.nullable});
        if (def.inPrimaryKey) {
            primaryKey.push_back(i);
        }
    }
    TableSchema byName(name, schemaColumns, {}, {}, SchemaOrigin::TableMap);
    std::vector<UniqueKey> uniqueKeys;
    for (const auto& keyNames : uniqueKeyColumnNames) {
        UniqueKey key;
        bool usable = !keyNames.empty();
        for (const auto& columnName : keyNames) {
            auto index = byName.columnIndex(columnName);
            // A key on a column the table map does not have, or on a nullable column, cannot identify a row.
            if (!index || schemaColumns[*index].nullable) {
                usable = false;
                break;
            }
            key.columns.push_back(*index);
        }
        if (usable) {
            key.name = "unique key " + std::to_string(uniqueKeys.size() + 1);
            uniqueKeys.push_back(std::move(key));
        }
    }
    auto origin = uniqueKeys.empty() ? SchemaOrigin::TableMap : SchemaOrigin::TableMapAndDownstreamKeys;
    return TableSchema(name, std::move(schemaColumns), std::move(primaryKey), std::move(uniqueKeys), origin);
}

namespace {

// Column names are case-insensitive in MySQL and MariaDB (ASCII folding is what matters for keys).
bool sameColumnName(const std::string& a, const std::string& b) {
    if (a.size() != b.size()) {
        return false;
    }
    for (size_t i = 0; i < a.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) {
            return false;
        }
    }
    return true;
}

}  // namespace

std::vector<std::vector<std::string>> TableSchema::notNullUniqueKeyColumnNames() const {
    std::vector<std::vector<std::string>> keys;
    for (const auto& key : uniqueKeys_) {
        std::vector<std::string> names;
        for (size_t position : key.columns) {
            names.push_back(columns_[position].name);
        }
        keys.push_back(std::move(names));
    }
    return keys;
}

void TableSchema::judgeRowKeyAgainst(const TableSchema& downstream) {
    rowKeyIsOnlyUniqueIndex_ = false;
    downstreamHasOwnColumns_ = std::any_of(downstream.columns().begin(), downstream.columns().end(),
                                           [&](const SchemaColumn& column) { return !columnIndex(column.name); });
    const auto& indexes = downstream.downstreamUniqueIndexes();
    if (rowKey_.kind == RowKeyKind::AllColumns || downstream.downstreamHasTriggers() || indexes.size() != 1 ||
        indexes.front().size() != rowKey_.columns.size()) {
        return;
    }
    // The same columns in any order: uniqueness does not depend on the order of an index's columns.
    for (size_t column : rowKey_.columns) {
        const std::string& name = columns_[column].name;
        bool found = std::any_of(indexes.front().begin(), indexes.front().end(),
                                 [&](const std::string& other) { return sameColumnName(name, other); });
        if (!found) {
            return;
        }
    }
    // A column only the downstream has may be NOT NULL without a default: an INSERT ... ON DUPLICATE KEY
    // UPDATE fails on it (1364) even where the row exists and a plain UPDATE works.
    rowKeyIsOnlyUniqueIndex_ = !downstreamHasOwnColumns_;
}

std::optional<size_t> TableSchema::columnIndex(const std::string& columnName) const {
    for (size_t i = 0; i < columns_.size(); ++i) {
        if (sameColumnName(columns_[i].name, columnName)) {
            return i;
        }
    }
    return std::nullopt;
}

std::string TableSchema::describe() const {
    std::string text = name_.text() + " (" + std::to_string(columns_.size()) + " columns, key ";
    if (rowKey_.kind == RowKeyKind::AllColumns) {
        text += rowKeyKindName(rowKey_.kind);
    } else {
        text += rowKey_.indexName + " (";
        for (size_t i = 0; i < rowKey_.columns.size(); ++i) {
            text += (i == 0 ? "" : ", ") + columns_[rowKey_.columns[i]].name;
        }
        text += ")";
    }
    return text + ")";
}

TableSchema TableSchema::leavingOut(const std::vector<std::string>& columnNames) const {
    TableSchema copy = *this;
    for (SchemaColumn& column : copy.columns_) {
        if (std::find(columnNames.begin(), columnNames.end(), column.name) != columnNames.end()) {
            column.absentDownstream = true;
        }
    }
    copy.computeWrittenColumns();
    return copy;
}

}  // namespace syncscope::schema
