// Where the tests find their servers, fixtures and output folders. Integration suites read the
// connection settings of the private MariaDB pair that the dbpair CTest fixture starts.
#pragma once

#include <functional>
#include <string>

#include "engine/common/server_settings.h"

namespace syncscope::test {

struct ServerSettings {
    std::string host = "127.0.0.1";
    int port = 0;
    std::string user;
    std::string password;
};

// The upstream as the replication user, as root, and the downstream as root.
ServerSettings upstreamReplication();
ServerSettings upstreamRoot();
ServerSettings downstreamRoot();

// The folder of the upstream's binary log files.
std::string upstreamBinlogDir();

// ../shared/fixtures/binlog, or empty when that folder is absent.
std::string fixturesDir();

// A folder under the build tree for a suite's output (screenshots, temporary files); created.
std::string outputDir(const std::string& suite);

// The same settings in the engine's type.
syncscope::ServerSettings engineSettings(const ServerSettings& settings);

// A loopback TCP port nobody listens on right now (for a server to start on, or for "unreachable").
int freeLoopbackPort();

// Polls `condition` every 50 ms until it holds or `timeoutMs` have passed; returns its last answer.
bool waitFor(const std::function<bool()>& condition, int timeoutMs = 30000);

}  // namespace syncscope::test
