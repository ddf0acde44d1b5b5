// A table as one TABLE_MAP event describes it: table id, schema, name and every column with the
// optional metadata (binlog_row_metadata=FULL) filled in. Rows events share it by shared_ptr so they
// outlive the decoder's table-map cache.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/binlog/column_def.h"

namespace syncscope::binlog {

struct TableMap {
    uint64_t tableId = 0;
    uint16_t flags = 0;
    std::string schema;
    std::string table;
    std::vector<ColumnDef> columns;

    // Optional metadata that ColumnDef has no place for. Empty when the event does not carry it.
    std::vector<uint32_t> primaryKey;          // column indexes, in key order
    std::vector<uint32_t> primaryKeyPrefixes;  // same length as primaryKey; 0 = the whole column
    std::vector<bool> columnVisible;           // MySQL 8.0.23+ COLUMN_VISIBILITY; empty = all visible
    bool hasColumnNames = false;               // COLUMN_NAME metadata present
    bool hasSignedness = false;                // SIGNEDNESS metadata present
    bool hasPrimaryKey = false;                // SIMPLE_PRIMARY_KEY or PRIMARY_KEY_WITH_PREFIX present
    uint32_t defaultCharset = 0;               // DEFAULT_CHARSET, 0 when absent

    // Number of JSON columns, used by PARTIAL_UPDATE_ROWS partial bitmaps.
    uint32_t jsonColumnCount() const {
        uint32_t count = 0;
        for (const ColumnDef& column : columns) {
            count += column.type == ColumnType::Json ? 1 : 0;
        }
        return count;
    }
};

using TableMapPtr = std::shared_ptr<const TableMap>;

}  // namespace syncscope::binlog
