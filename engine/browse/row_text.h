// Row images as text for the browser: each value the way the mariadb client prints it in SQL (NULL,
// numbers bare, text quoted, binary as x'..'), and a row's key value unquoted for key searches.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "engine/binlog/rows_event.h"

namespace syncscope::browse {

inline constexpr const char* kNotLoggedText = "(not logged)";  // a column binlog_row_image left out

std::vector<std::string> imageText(const binlog::RowsEvent& rows, std::span<const binlog::ColumnValue> image,
                                   const std::vector<bool>& present);
// The key columns: the primary key the binlog names (binlog_row_metadata=FULL), else the first column.
std::vector<uint32_t> keyColumns(const binlog::TableMap& table);
// The key's values as text, comma-separated; "" when the image is absent.
std::string keyText(const binlog::RowsEvent& rows, std::span<const binlog::ColumnValue> image);
std::vector<std::string> columnNames(const binlog::TableMap& table);  // "@1", "@2", ... when not logged

}  // namespace syncscope::browse
