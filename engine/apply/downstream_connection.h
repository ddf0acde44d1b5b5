// A connection to the downstream, where the engine applies rows and keeps its checkpoint table: through
// MySQL Connector/C++ 1.1 (checkpoints, schema reads), or through MariaDB Connector/C where the apply
// workers send a batch's statements without waiting for each answer (dml_executor.h).
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "engine/common/error.h"
#include "engine/common/server_settings.h"

namespace sql {
class Connection;
}
struct st_mysql;

namespace syncscope::apply {

// An error from the downstream with the server's error code (0 when the client failed on its own).
// what() is the full message; serverMessage() is the server's own words and sql() the statement
// (with its values) when a statement failed.
class DownstreamError : public Error {
public:
    DownstreamError(const std::string& message, int code, std::string serverMessage = {}, std::string sql = {})
        : Error(message), code_(code), serverMessage_(std::move(serverMessage)), sql_(std::move(sql)) {}
    int code() const { return code_; }
    const std::string& serverMessage() const { return serverMessage_; }
    const std::string& sql() const { return sql_; }

private:
    int code_;
    std::string serverMessage_;
    std::string sql_;
};

// Connects or throws DownstreamError naming the server (never the password).
std::unique_ptr<sql::Connection> connectDownstream(const ServerSettings& settings);

// Closes a Connector/C connection.
struct NativeConnectionCloser {
    void operator()(st_mysql* mysql) const noexcept;
};
using NativeConnection = std::unique_ptr<st_mysql, NativeConnectionCloser>;

struct NativeConnectionOptions {
    bool foundRows = true;     // CLIENT_FOUND_ROWS: an UPDATE reports the rows it found, changed or not
    bool localInfile = false;  // LOAD DATA LOCAL INFILE allowed (the snapshot load feeds it from memory)
};

// The same connection through MariaDB Connector/C (utf8mb4, the settings' timeouts and TLS, no
// multi-statements, no reconnect), or throws DownstreamError naming the server (never the password).
NativeConnection connectDownstreamNative(const ServerSettings& settings, NativeConnectionOptions options = {});

// Whether the server takes a prepared statement executed over arrays of values in one round trip
// (MariaDB's bulk execution, COM_STMT_BULK_EXECUTE: MariaDB 10.2 and later; no MySQL server).
bool takesArrayBinding(st_mysql* mysql);

// Connects as the engine would and returns the server's VERSION() (for "test connection" checks);
// throws DownstreamError naming the server when it cannot.
std::string downstreamServerVersion(const ServerSettings& settings);

}  // namespace syncscope::apply
