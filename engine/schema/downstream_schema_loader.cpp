#include "engine/schema/downstream_schema_loader.h"

#include "engine/schema/cascade_family.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

#include <map>
#include <memory>
#include <unordered_map>

namespace syncscope::schema {

namespace {

const char* const kColumnsQuery =
    "SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, IS_NULLABLE, EXTRA, COLLATION_NAME FROM information_schema.COLUMNS "
    "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION";

const char* const kKeysQuery =
    "SELECT INDEX_NAME, COLUMN_NAME, NON_UNIQUE, SUB_PART IS NOT NULL FROM information_schema.STATISTICS "
    "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY INDEX_NAME, SEQ_IN_INDEX";

const char* const kTriggersQuery =
    "SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE EVENT_OBJECT_SCHEMA = ? AND EVENT_OBJECT_TABLE = ?";

const char* const kBinaryCollation = "binary";

const char* const kPrimaryIndexName = "PRIMARY";

// information_schema DATA_TYPE to the binlog's type code, as far as the apply layer cares.
binlog::ColumnType typeFromName(const std::string& dataType) {
    using binlog::ColumnType;
    static const std::unordered_map<std::string, ColumnType> kTypes = {
        {"tinyint", ColumnType::Tiny},
        {"smallint", ColumnType::Short},
        {"mediumint", ColumnType::Int24},
        {"int", ColumnType::Long},
        {"bigint", ColumnType::LongLong},
        {"float", ColumnType::Float},
        {"double", ColumnType::Double},
        {"decimal", ColumnType::NewDecimal},
        {"date", ColumnType::Date},
        {"time", ColumnType::Time2},
        {"datetime", ColumnType::DateTime2},
        {"timestamp", ColumnType::Timestamp2},
        {"year", ColumnType::Year},
        {"char", ColumnType::String},
        {"varchar", ColumnType::VarChar},
        {"binary", ColumnType::String},
        {"varbinary", ColumnType::VarChar},
        {"tinyblob", ColumnType::Blob},
        {"blob", ColumnType::Blob},
        {"mediumblob", ColumnType::Blob},
        {"longblob", ColumnType::Blob},
        {"tinytext", ColumnType::Blob},
        {"text", ColumnType::Blob},
        {"mediumtext", ColumnType::Blob},
        {"longtext", ColumnType::Blob},
        {"json", ColumnType::Json},
        {"enum", ColumnType::Enum},
        {"set", ColumnType::Set},
        {"bit", ColumnType::Bit},
        {"geometry", ColumnType::Geometry},
    };
    auto it = kTypes.find(dataType);
    return it == kTypes.end() ? ColumnType::Null : it->second;
}

// EXTRA says "VIRTUAL GENERATED" or "STORED GENERATED" (MariaDB 10.2+ and MySQL 5.7+; MariaDB before
// 10.2 "PERSISTENT"); MySQL's "DEFAULT_GENERATED" is a column with an expression default, written as any
// other. (MariaDB's IS_GENERATED is not in MySQL, so EXTRA serves both.)
bool isGenerated(const std::string& extra) {
    return extra.find("VIRTUAL") != std::string::npos || extra.find("STORED") != std::string::npos ||
           extra.find("PERSISTENT") != std::string::npos;
}

struct IndexColumns {
    bool unique = false;
    bool partial = false;  // over a column prefix or an expression
    std::vector<std::string> columns;
};

}  // namespace

const std::vector<ForeignKeyEdge>& DownstreamSchemaLoader::foreignKeys() {
    if (!foreignKeys_) {
        foreignKeys_ = readForeignKeys(connection_);
    }
    return *foreignKeys_;
}

std::optional<TableSchema> DownstreamSchemaLoader::load(const TableName& table) {
    std::vector<SchemaColumn> columns;
    std::map<std::string, IndexColumns> indexes;
    bool hasTriggers = false;
    std::vector<std::string> referencingKeys;
    CascadeFamily family;
    try {
        std::unique_ptr<sql::PreparedStatement> columnsStatement(connection_.prepareStatement(kColumnsQuery));
        columnsStatement->setString(1, table.schema);
        columnsStatement->setString(2, table.table);
        std::unique_ptr<sql::ResultSet> rows(columnsStatement->executeQuery());
        while (rows->next()) {
            SchemaColumn column;
            column.name = rows->getString(1);
            column.typeName = rows->getString(2);
            column.type = typeFromName(column.typeName);
            std::string columnType = rows->getString(3);
            column.isUnsigned = columnType.find("unsigned") != std::string::npos;
            column.nullable = std::string(rows->getString(4)) == "YES";
            column.generated = isGenerated(rows->getString(5));
            // No collation: a binary string or not text at all, compared byte for byte.
            column.collation = rows->isNull(6) ? std::string(kBinaryCollation) : std::string(rows->getString(6));
            columns.push_back(std::move(column));
        }
        if (columns.empty()) {
            return std::nullopt;
        }
        std::unique_ptr<sql::PreparedStatement> keysStatement(connection_.prepareStatement(kKeysQuery));
        keysStatement->setString(1, table.schema);
        keysStatement->setString(2, table.table);
        std::unique_ptr<sql::ResultSet> keyRows(keysStatement->executeQuery());
        while (keyRows->next()) {
            auto& index = indexes[keyRows->getString(1)];
            index.unique = keyRows->getInt(3) == 0;
            index.partial = index.partial || keyRows->isNull(2) || keyRows->getInt(4) != 0;
            index.columns.push_back(keyRows->isNull(2) ? std::string() : std::string(keyRows->getString(2)));
        }
        std::unique_ptr<sql::PreparedStatement> triggersStatement(connection_.prepareStatement(kTriggersQuery));
        triggersStatement->setString(1, table.schema);
        triggersStatement->setString(2, table.table);
        std::unique_ptr<sql::ResultSet> triggerRows(triggersStatement->executeQuery());
        hasTriggers = triggerRows->next() && triggerRows->getInt64(1) > 0;
        referencingKeys = referencingForeignKeysOf(table, foreignKeys());
        family = cascadeFamilyOf(table, foreignKeys());
    } catch (const sql::SQLException& e) {
        throw SchemaError("cannot read the structure of downstream table " + table.text() + ": " + e.what() + " [" +
                              std::to_string(e.getErrorCode()) + "]",
                          e.getErrorCode());
    }

    TableSchema byName(table, columns, {}, {}, SchemaOrigin::Downstream);
    std::vector<size_t> primaryKey;
    std::vector<UniqueKey> uniqueKeys;
    std::vector<std::vector<std::string>> uniqueIndexes;
    for (const auto& [indexName, index] : indexes) {
        if (!index.unique) {
            continue;
        }
        uniqueIndexes.push_back(index.partial ? std::vector<std::string>{} : index.columns);
        std::vector<size_t> positions;
        bool notNull = true;
        for (const auto& columnName : index.columns) {
            auto position = byName.columnIndex(columnName);
            if (!position) {
                notNull = false;  // an expression or prefix we cannot use
                break;
            }
            notNull = notNull && !columns[*position].nullable;
            positions.push_back(*position);
        }
        if (indexName == kPrimaryIndexName) {
            primaryKey = positions;
        } else if (notNull) {
            uniqueKeys.push_back({indexName, positions});
        }
    }
    TableSchema schema(table, std::move(columns), std::move(primaryKey), std::move(uniqueKeys),
                       SchemaOrigin::Downstream);
    schema.setDownstreamUniqueIndexes(std::move(uniqueIndexes));
    schema.setDownstreamHasTriggers(hasTriggers);
    schema.setReferencingForeignKeys(std::move(referencingKeys));
    schema.setCascadeFamily(std::move(family));
    return schema;
}

}  // namespace syncscope::schema
