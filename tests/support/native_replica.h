// MariaDB's own replica of the test pair's upstream for the suites of native replicas: started through
// `scripts/dbpair start-replica` (port SYNCSCOPE_REPLICA_PORT) and pointed afresh at the upstream's current
// GTID position, whatever an earlier suite (the differential test re-points it per case) left it at.
// Header-only: the suites that use it link the engine, the support library does not.
#pragma once

#include <QProcess>
#include <QString>
#include <cstdlib>
#include <string>

#include "engine/source/upstream_connection.h"
#include "tests/support/test_env.h"

namespace syncscope::test {

inline constexpr int kDbpairTimeoutMs = 120000;
inline constexpr int kReplicaPortAboveDownstream = 3;  // as tests/CMakeLists.txt places it by default

// The replica as root: SYNCSCOPE_REPLICA_PORT (CTest sets it), else the downstream's port + 3.
inline ServerSettings replicaRoot() {
    ServerSettings replica = downstreamRoot();
    const char* port = std::getenv("SYNCSCOPE_REPLICA_PORT");
    replica.port = port != nullptr && *port != '\0' ? std::atoi(port) : replica.port + kReplicaPortAboveDownstream;
    return replica;
}

// Runs scripts/dbpair COMMAND; false with its output in `output` when it fails.
inline bool runDbpair(const QString& command, QString* output) {
    QProcess script;
    script.setProcessChannelMode(QProcess::MergedChannels);
    script.start(QStringLiteral(SYNCSCOPE_SOURCE_DIR "/scripts/dbpair"), {command});
    const bool ok = script.waitForFinished(kDbpairTimeoutMs) && script.exitStatus() == QProcess::NormalExit &&
                    script.exitCode() == 0;
    *output = QString::fromUtf8(script.readAll());
    return ok;
}

// Starts the replica (when it is not running) and makes it replicate the upstream from its current end,
// as the replication user, with its default channel only. Throws source::UpstreamError when a statement
// fails; false with the script's output when the server cannot start.
inline bool startReplicaAtUpstreamEnd(QString* output) {
    if (!runDbpair(QStringLiteral("start-replica"), output)) {
        return false;
    }
    source::UpstreamConnection up(engineSettings(upstreamRoot()));
    source::UpstreamConnection replica(engineSettings(replicaRoot()));
    const std::string gtid = up.queryValue("SELECT @@GLOBAL.gtid_binlog_pos").value_or("");
    const ServerSettings repl = upstreamReplication();
    replica.execute("STOP ALL SLAVES");
    replica.execute("RESET SLAVE ALL");
    replica.execute("SET GLOBAL gtid_slave_pos = '" + gtid + "'");
    replica.execute("CHANGE MASTER TO MASTER_HOST = '127.0.0.1', MASTER_PORT = " + std::to_string(repl.port) +
                    ", MASTER_USER = '" + repl.user + "', MASTER_PASSWORD = '" + repl.password +
                    "', MASTER_USE_GTID = slave_pos, MASTER_CONNECT_RETRY = 1");
    replica.execute("START SLAVE");
    return true;
}

}  // namespace syncscope::test
