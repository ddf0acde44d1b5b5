// One value of a query, or the error as text, for the suites that compare the test servers' rows (so that a
// failed comparison shows what the server said instead of throwing). Header-only: the suites that use it link
// the engine, the support library does not.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include "engine/source/upstream_connection.h"

namespace syncscope::test {

inline std::string valueOf(source::UpstreamConnection& server, const std::string& sql) {
    try {
        return server.queryValue(sql).value_or("NULL");
    } catch (const std::exception& e) {
        return std::string("ERROR: ") + e.what();
    }
}

// CHECKSUM TABLE's value for `table` (DB.TABLE).
inline std::string checksumOf(source::UpstreamConnection& server, const std::string& table) {
    try {
        auto rows = server.query("CHECKSUM TABLE " + table);
        return rows.empty() || !rows.front()[1] ? "NULL" : *rows.front()[1];
    } catch (const std::exception& e) {
        return std::string("ERROR: ") + e.what();
    }
}

inline std::string readTextFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace syncscope::test
