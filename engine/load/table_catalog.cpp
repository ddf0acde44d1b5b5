#include "engine/load/table_catalog.h"

#include <map>
#include <set>

#include "engine/load/load_error.h"

namespace syncscope::load {

namespace {

constexpr const char* kSystemSchemas = "('mysql', 'information_schema', 'performance_schema', 'sys')";
constexpr const char* kPrimaryIndex = "PRIMARY";

using Key = std::pair<std::string, std::string>;

std::string text(const source::Row& row, size_t i) {
    return i < row.size() && row[i] ? *row[i] : std::string();
}

uint64_t number(const source::Row& row, size_t i) {
    std::string value = text(row, i);
    return value.empty() ? 0 : std::stoull(value);
}

bool isIntegerType(const std::string& dataType) {
    static const std::set<std::string> kIntegers = {"tinyint", "smallint", "mediumint", "int", "bigint"};
    return kIntegers.contains(dataType);
}

struct IndexColumns {
    std::vector<std::string> columns;
    bool usable = true;  // unique, no prefix, no nullable column
};

}  // namespace

std::vector<LoadTable> discoverTables(source::UpstreamConnection& upstream, const filter::BlockAllowList& blockAllow,
                                      const filter::TableRouter& router) {
    std::map<Key, LoadTable> tables;
    for (const auto& row : upstream.query(
             std::string("SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_ROWS, DATA_LENGTH FROM information_schema.TABLES "
                         "WHERE TABLE_TYPE = 'BASE TABLE' AND TABLE_SCHEMA NOT IN ") +
             kSystemSchemas)) {
        TableName name{text(row, 0), text(row, 1)};
        if (!blockAllow.allows(name)) {
            continue;
        }
        LoadTable table;
        table.upstream = name;
        try {
            table.target = router.route(name);
        } catch (const std::exception& e) {
            throw LoadError(std::string("load: routing ") + name.quoted() + ": " + e.what());
        }
        table.estimatedRows = number(row, 2);
        table.estimatedBytes = number(row, 3);
        tables.emplace(Key{name.schema, name.table}, std::move(table));
    }
    if (tables.empty()) {
        return {};
    }

    std::map<Key, std::string> columnTypes;  // (table, column) -> DATA_TYPE, for the key
    for (const auto& row :
         upstream.query(std::string("SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, DATA_TYPE, IS_GENERATED FROM "
                                    "information_schema.COLUMNS WHERE TABLE_SCHEMA NOT IN ") +
                        kSystemSchemas + " ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION")) {
        auto table = tables.find(Key{text(row, 0), text(row, 1)});
        if (table == tables.end()) {
            continue;
        }
        if (text(row, 4) != "ALWAYS") {
            table->second.columns.push_back(text(row, 2));
        }
        columnTypes[Key{table->second.upstream.quoted(), text(row, 2)}] = text(row, 3);
    }

    std::map<Key, std::map<std::string, IndexColumns>> indexes;
    for (const auto& row : upstream.query(
             std::string("SELECT TABLE_SCHEMA, TABLE_NAME, INDEX_NAME, COLUMN_NAME, NON_UNIQUE, SUB_PART, NULLABLE "
                         "FROM information_schema.STATISTICS WHERE TABLE_SCHEMA NOT IN ") +
             kSystemSchemas + " ORDER BY TABLE_SCHEMA, TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX")) {
        Key key{text(row, 0), text(row, 1)};
        if (!tables.contains(key)) {
            continue;
        }
        IndexColumns& index = indexes[key][text(row, 2)];
        index.columns.push_back(text(row, 3));
        if (text(row, 4) != "0" || row[5].has_value() || text(row, 6) == "YES") {
            index.usable = false;
        }
    }

    std::vector<LoadTable> result;
    for (auto& [key, table] : tables) {
        auto& tableIndexes = indexes[key];
        const IndexColumns* chosen = nullptr;
        if (auto primary = tableIndexes.find(kPrimaryIndex); primary != tableIndexes.end() && primary->second.usable) {
            chosen = &primary->second;
        } else {
            for (const auto& [name, index] : tableIndexes) {
                if (index.usable && (chosen == nullptr || index.columns.size() < chosen->columns.size())) {
                    chosen = &index;
                }
            }
        }
        if (chosen != nullptr) {
            table.keyColumns = chosen->columns;
            table.integerKey = table.keyColumns.size() == 1 &&
                               isIntegerType(columnTypes[Key{table.upstream.quoted(), table.keyColumns.front()}]);
        }
        result.push_back(std::move(table));
    }
    return result;
}

}  // namespace syncscope::load
