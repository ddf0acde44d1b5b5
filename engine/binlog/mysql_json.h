// MySQL's binary JSON (the JSON column format of MySQL 5.7+, as rows events carry it) to JSON text.
// MariaDB stores JSON as LONGTEXT, so this is for MySQL binlogs only.
#pragma once

#include <string>
#include <string_view>

namespace syncscope::binlog {

// Appends the JSON text of one binary JSON document (or of one value in a JSON diff, which has the
// same form). Text is compact with ", " and ": " separators as MySQL prints JSON; opaque values
// (DECIMAL, DATE, TIME, DATETIME, TIMESTAMP) become strings as MySQL prints them, other opaque values
// "base64:typeNN:..." as MySQL does. An empty document is JSON null (MySQL logs it for a NULL
// inside a JSON column's default). Throws syncscope::Error naming the offset for malformed input.
void appendMysqlJsonText(std::string_view binary, std::string& out);
std::string mysqlJsonToText(std::string_view binary);

}  // namespace syncscope::binlog
