// Rows read from the upstream as SQL literals ready to paste into an INSERT or a WHERE: numbers as
// they are, text quoted and escaped, binary values (BLOB, BINARY, BIT, spatial) as X'..' so that no
// byte is reinterpreted. Rows are streamed (mysql_use_result): memory holds one row at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/source/upstream_connection.h"

namespace syncscope::load {

// Called once per row with the row's literals as "(v1,v2,...)" and the bytes of its values.
using LiteralRowSink = std::function<void(const std::string& tuple, uint64_t valueBytes)>;

// Runs `select` and streams its rows into `sink`. Throws source::UpstreamError naming the query. The
// sink must not use `connection` (its result is still being read).
void streamLiteralRows(source::UpstreamConnection& connection, const std::string& select, const LiteralRowSink& sink);

// A small result (chunk boundaries) with each value as its own literal.
std::vector<std::vector<std::string>> queryLiteralRows(source::UpstreamConnection& connection,
                                                       const std::string& select);

}  // namespace syncscope::load

namespace syncscope::load {

// 'text' with quotes, backslashes and control bytes escaped, for names in information_schema queries.
std::string sqlString(const std::string& text);

}  // namespace syncscope::load
