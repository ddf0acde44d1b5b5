// The body of WRITE/UPDATE/DELETE rows events (v0, v1, v2, MariaDB compressed) and MySQL's
// PARTIAL_UPDATE_ROWS: the table they change and every row as before/after images of typed values.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "engine/binlog/column_value.h"
#include "engine/binlog/table_map.h"

namespace syncscope::binlog {

enum class RowsOp : uint8_t { Insert, Update, Delete };

std::string_view rowsOpName(RowsOp op);  // "insert", "update", "delete"

// One change of a MySQL JSON column in a PARTIAL_UPDATE_ROWS after image (binlog_row_value_options=
// PARTIAL_JSON): what JSON_SET/JSON_REPLACE/JSON_REMOVE did at one path.
struct JsonDiff {
    enum class Operation : uint8_t { Replace = 0, Insert = 1, Remove = 2 };
    Operation op = Operation::Replace;
    std::string path;         // JSON path text, e.g. "$.a[1]"
    std::string binaryValue;  // the new value in MySQL binary JSON; empty for Remove
};

// The after-image value of one JSON column that was logged as diffs instead of a whole document;
// its slot in RowsEvent::values holds a default ColumnValue.
struct PartialJsonValue {
    uint32_t row = 0;     // index into RowsEvent::rows
    uint32_t column = 0;  // column index in the table
    std::vector<JsonDiff> diffs;
};

// One row of the event. An image is a run of columnCount values in RowsEvent::values starting at
// the offset given here; kNoImage when the event kind has no such image (insert: no before).
struct RowChange {
    static constexpr uint32_t kNoImage = UINT32_MAX;
    uint32_t before = kNoImage;
    uint32_t after = kNoImage;
};

struct RowsEvent {
    static constexpr uint16_t kStatementEndFlag = 0x0001;  // STMT_END_F: last rows event of a statement
    // NO_FOREIGN_KEY_CHECKS_F: the upstream session ran with foreign_key_checks=0 (no cascades ran).
    static constexpr uint16_t kNoForeignKeyChecksFlag = 0x0002;

    RowsOp op = RowsOp::Insert;
    uint8_t version = 1;         // 0 (pre-GA), 1 or 2
    bool compressed = false;     // MariaDB *_ROWS_COMPRESSED_EVENT
    bool partialUpdate = false;  // MySQL PARTIAL_UPDATE_ROWS_EVENT
    uint64_t tableId = 0;
    uint16_t flags = 0;
    TableMapPtr table;  // never null in a decoded event
    uint32_t columnCount = 0;

    // Columns present in the before / after images (binlog_row_image MINIMAL and NOBLOB leave some
    // out). A value of a column that is not present is a default ColumnValue.
    std::vector<bool> presentBefore;
    std::vector<bool> presentAfter;

    std::vector<ColumnValue> values;  // all images of all rows, columnCount values each
    std::vector<RowChange> rows;
    std::vector<PartialJsonValue> partialJson;  // PARTIAL_UPDATE_ROWS only
    std::string extraData;                      // v2 extra row info, as logged

    size_t rowCount() const { return rows.size(); }
    bool hasBefore(size_t row) const { return rows[row].before != RowChange::kNoImage; }
    bool hasAfter(size_t row) const { return rows[row].after != RowChange::kNoImage; }
    std::span<const ColumnValue> before(size_t row) const { return image(rows[row].before); }
    std::span<const ColumnValue> after(size_t row) const { return image(rows[row].after); }
    bool statementEnd() const { return (flags & kStatementEndFlag) != 0; }
    bool foreignKeyChecks() const { return (flags & kNoForeignKeyChecksFlag) == 0; }

private:
    std::span<const ColumnValue> image(uint32_t offset) const {
        if (offset == RowChange::kNoImage) {
            return {};
        }
        return std::span<const ColumnValue>(values.data() + offset, columnCount);
    }
};

}  // namespace syncscope::binlog
