// One connection the verifier reads a server through (either side): prepared statements cached by
// text, values bound with the apply layer's binding, rows returned as text. Its session runs in UTC
// (so TIMESTAMPs read the same on both sides) and REPEATABLE READ (so a locking read of an absent key
// also locks its gap).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/binlog/location.h"
#include "engine/common/server_settings.h"
#include "engine/verify/chunk_sql.h"
#include "engine/verify/verify_error.h"

namespace sql {
class Connection;
class PreparedStatement;
}  // namespace sql

namespace syncscope::verify {

// A failed query or connection, with the server's error code (0 when the client failed on its own).
class ServerError : public VerifyError {
public:
    ServerError(const std::string& message, int code) : VerifyError(message), code_(code) {}
    int code() const { return code_; }

private:
    int code_;
};

class ServerSession {
public:
    static constexpr int kDefaultLockWaitSeconds = 5;

    // `side` is "upstream" or "downstream", used in every message. Throws VerifyError.
    ServerSession(std::string side, const ServerSettings& settings, int lockWaitSeconds = kDefaultLockWaitSeconds);
    ~ServerSession();
    ServerSession(const ServerSession&) = delete;
    ServerSession& operator=(const ServerSession&) = delete;

    std::vector<RowValues> query(const BoundQuery& query);
    std::vector<RowValues> query(const std::string& sql);
    void execute(const std::string& sql);

    // The server's binlog position now (SHOW MASTER STATUS, plus @@gtid_binlog_pos on MariaDB).
    binlog::Location binlogPosition();

    const std::string& side() const { return side_; }
    std::string describe() const { return side_ + " " + settings_.describe(); }
    sql::Connection& connection() { return *connection_; }
    // The server's id of this connection (CONNECTION_ID()), read once when connecting: safe to read
    // while another thread runs a query on the session.
    const std::string& connectionId() const { return connectionId_; }
    // Whether a query lost a lock conflict: a lock wait timed out, or the server chose it as a
    // deadlock's victim and rolled its transaction back (the caller may retry the transaction).
    static bool isLockConflict(int code);
    // Whether a server error means the connection is gone.
    static bool isConnectionLost(int code);

private:
    sql::PreparedStatement& prepared(const std::string& sql);

    std::string side_;
    ServerSettings settings_;
    std::unique_ptr<sql::Connection> connection_;
    std::string connectionId_;
    std::map<std::string, std::unique_ptr<sql::PreparedStatement>> statements_;
};

}  // namespace syncscope::verify
