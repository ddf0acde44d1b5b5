// A query whose result is read by column name (SHOW ALL SLAVES STATUS has 60-odd columns whose order
// changes between versions), on a connection of the engine's source part.
#pragma once

#include <string>
#include <vector>

#include "engine/source/upstream_connection.h"

namespace syncscope::replica {

struct NamedRows {
    std::vector<std::string> columns;
    std::vector<source::Row> rows;
};

// Throws source::UpstreamError with the server's code and the statement when it fails.
NamedRows queryWithColumnNames(source::UpstreamConnection& connection, const std::string& sql);

}  // namespace syncscope::replica
