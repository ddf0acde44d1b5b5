// What `mariadb-binlog --base64-output=decode-rows -vv` prints for the row images of one table, and
// the same form rendered from decoded values, for the types whose printed form is unambiguous:
// integers, DECIMAL, YEAR, DATE, TIME, DATETIME, TIMESTAMP (seconds), ENUM (index), SET and BIT (bits).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/binlog/column_value.h"

namespace syncscope::test {

struct PrintedChange {
    std::string op;                     // "INSERT", "UPDATE", "DELETE"
    std::map<int, std::string> before;  // @N (1-based column) -> printed value
    std::map<int, std::string> after;
};

// Runs mariadb-binlog on `file`; nullopt when the tool is not installed.
std::optional<std::vector<PrintedChange>> mariadbBinlogChanges(const std::string& file, const std::string& schema,
                                                               const std::string& table);

// The value as mariadb-binlog -vv prints it, or nullopt for a type this comparison leaves out.
std::optional<std::string> printedLikeMariadbBinlog(const binlog::ColumnValue& value, const binlog::ColumnDef& column);

// mariadb-binlog's text brought to the compared form ("-1 (255)" -> "255" for unsigned, quotes removed,
// DATE's ':' separators as '-').
std::string normalizedPrinted(const std::string& printed, const binlog::ColumnValue& value);

}  // namespace syncscope::test
