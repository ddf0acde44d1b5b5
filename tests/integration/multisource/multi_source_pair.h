// What the multi-source suites of this folder share on the private MariaDB pair: both servers connected as
// root, with the databases the sources replicate made afresh. Header-only: these suites link the engine, the
// support library does not.
#pragma once

#include <initializer_list>
#include <memory>
#include <string>

#include "engine/source/upstream_connection.h"
#include "tests/support/test_env.h"

namespace syncscope::test {

// The pair as root, each of `databases` made afresh on both servers outside their binlogs with one table t
// (id INT PRIMARY KEY, v VARCHAR(40)), and dm_meta created downstream.
inline void connectWithFreshDatabases(std::unique_ptr<source::UpstreamConnection>& up,
                                      std::unique_ptr<source::UpstreamConnection>& down,
                                      std::initializer_list<const char*> databases) {
    up = std::make_unique<source::UpstreamConnection>(engineSettings(upstreamRoot()));
    down = std::make_unique<source::UpstreamConnection>(engineSettings(downstreamRoot()));
    for (source::UpstreamConnection* server : {up.get(), down.get()}) {
        server->execute("SET SESSION sql_log_bin = 0");
        for (const char* database : databases) {
            server->execute(std::string("DROP DATABASE IF EXISTS ") + database);
            server->execute(std::string("CREATE DATABASE ") + database);
            server->execute(std::string("CREATE TABLE ") + database + ".t (id INT PRIMARY KEY, v VARCHAR(40))");
        }
        server->execute("SET SESSION sql_log_bin = 1");
    }
    down->execute("CREATE DATABASE IF NOT EXISTS dm_meta");
}

}  // namespace syncscope::test
