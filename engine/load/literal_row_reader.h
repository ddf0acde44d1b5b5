// Rows read from the upstream as SQL literals ready to paste into an INSERT or a WHERE: numbers as
// they are, text quoted and escaped, binary values (BLOB, BINARY, BIT, spatial) as X'..' so that no
// byte is reinterpreted. Rows are streamed (mysql_use_result): memory holds one row at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/source/upstream_connection.h"

struct st_mysql_res;

namespace syncscope::load {

// Called once per row with the row's literals as "(v1,v2,...)" and the bytes of its values.
using LiteralRowSink = std::function<void(const std::string& tuple, uint64_t valueBytes)>;

// Runs `select` and streams its rows into `sink`. Throws source::UpstreamError naming the query. The
// sink must not use `connection` (its result is still being read).
void streamLiteralRows(source::UpstreamConnection& connection, const std::string& select, const LiteralRowSink& sink);

// The rows of one SELECT pulled one at a time (mysql_use_result), for a consumer that asks for more
// as it goes (a LOAD DATA feed). Memory holds one row. Throws source::UpstreamError naming the query.
class UpstreamRowCursor {
public:
    UpstreamRowCursor(source::UpstreamConnection& connection, std::string select);
    ~UpstreamRowCursor();
    UpstreamRowCursor(const UpstreamRowCursor&) = delete;
    UpstreamRowCursor& operator=(const UpstreamRowCursor&) = delete;

    // Moves to the next row; false after the last.
    bool next();
    size_t columnCount() const { return binary_.size(); }
    // A binary value (BLOB, BINARY, BIT, spatial) travels as hex in a LOAD DATA line: UNHEX it.
    bool binaryColumn(size_t column) const { return binary_[column]; }
    bool autoIncrementColumn(size_t column) const { return autoIncrement_[column]; }
    // The current row as read: a pointer per column (null for NULL) and the lengths.
    const char* const* values() const { return row_; }
    const unsigned long* lengths() const { return lengths_; }
    // Appends the current row as one LOAD DATA line (tab-separated, \N for NULL, escaped, '\n' at
    // the end); returns the bytes of its values.
    uint64_t appendLoadDataLine(std::string& out) const;

private:
    source::UpstreamConnection& connection_;
    std::string select_;
    ::st_mysql_res* result_ = nullptr;
    char** row_ = nullptr;
    const unsigned long* lengths_ = nullptr;
    std::vector<bool> binary_;
    std::vector<bool> autoIncrement_;
};

// A small result (chunk boundaries) with each value as its own literal.
std::vector<std::vector<std::string>> queryLiteralRows(source::UpstreamConnection& connection,
                                                       const std::string& select);

}  // namespace syncscope::load

namespace syncscope::load {

// 'text' with quotes, backslashes and control bytes escaped, for names in information_schema queries.
std::string sqlString(const std::string& text);

}  // namespace syncscope::load
