// What the inspector needs to know about an upstream: where it stands now (SHOW MASTER STATUS and
// its GTIDs) and which binlog files it still has (SHOW BINARY LOGS).
#pragma once

#include <string>
#include <vector>

#include "engine/binlog/location.h"
#include "engine/binlog/position_axis.h"

namespace syncscope::source {
class UpstreamConnection;
}

namespace syncscope::inspect {

struct UpstreamState {
    std::string server;        // user@host:port, never the password
    binlog::Location current;  // SHOW MASTER STATUS + @@gtid_binlog_pos (MariaDB) or Executed_Gtid_Set (MySQL)
    std::vector<binlog::BinlogFileSize> files;  // SHOW BINARY LOGS, oldest first
};

// Queries the upstream; throws source::UpstreamError (connection) or Error (binlog off, odd answers)
// naming the server and the statement.
UpstreamState readUpstreamState(source::UpstreamConnection& upstream);

}  // namespace syncscope::inspect
