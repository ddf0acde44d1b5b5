// A session on one of the three servers (upstream, our downstream, the native replica) through MySQL
// Connector/C++, as the differential test's workload and checks use them. Errors are SqlFailure with
// the server's code, the statement and the server's port.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/support/test_env.h"

namespace sql {
class Connection;
}

namespace syncscope::differential {

class SqlFailure : public std::runtime_error {
public:
    SqlFailure(const std::string& message, int code) : std::runtime_error(message), code_(code) {}
    int code() const { return code_; }

private:
    int code_;
};

using SqlRow = std::vector<std::optional<std::string>>;

class SqlSession {
public:
    // Connects (utf8mb4) or throws SqlFailure naming the port.
    explicit SqlSession(const test::ServerSettings& server, const std::string& database = {});
    ~SqlSession();
    SqlSession(const SqlSession&) = delete;
    SqlSession& operator=(const SqlSession&) = delete;

    void execute(const std::string& sql);
    std::vector<SqlRow> query(const std::string& sql);
    std::optional<std::string> value(const std::string& sql);  // first column of the first row

private:
    [[noreturn]] void fail(const std::string& sql, const std::exception& error) const;

    test::ServerSettings server_;
    std::unique_ptr<sql::Connection> connection_;
};

// The native replica started by `scripts/dbpair start-replica` (SYNCSCOPE_REPLICA_PORT, default the
// downstream's port + 2), as root.
test::ServerSettings replicaRoot();

}  // namespace syncscope::differential
