// What the outage suites share: connections to the private pair (opened anew, as servers restart),
// sysbench phases, table fingerprints, restarts through `scripts/dbpair restart`.
#pragma once

#include <QStringList>

#include <memory>
#include <string>

#include "engine/source/upstream_connection.h"
#include "tests/support/test_env.h"

namespace syncscope::test {

std::unique_ptr<source::UpstreamConnection> connectTo(const ServerSettings& server);

// sysbench oltp_write_only against the upstream (as root) in database `database`, `rate` transactions a second.
QStringList sysbenchArgs(const std::string& database, int tables, int tableSize, int seconds, const char* command,
                         int rate = 100);

// "count/checksum;" for each sbtestN table of `database`, or the error that stopped it.
std::string tableFingerprint(const ServerSettings& server, const std::string& database, int tables);

// `scripts/dbpair restart up|down SECONDS_DOWN` with the test's environment; its output on failure.
struct RestartResult {
    bool ok = false;
    std::string output;
};
RestartResult restartServer(const char* which, double secondsDown);

// How often `needle` occurs in `text` (log lines, for the suites that read the engine's log).
size_t occurrences(const std::string& text, const std::string& needle);

}  // namespace syncscope::test
