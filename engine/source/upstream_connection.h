// A connection to the upstream through MariaDB Connector/C: used for the binlog dump's handshake and
// for the few queries the source needs (settings, SHOW BINARY LOGS, @@gtid_binlog_pos).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/common/error.h"
#include "engine/common/server_settings.h"

struct st_mysql;

namespace syncscope::source {

// An error from the upstream, with the server's error code (0 when the client failed on its own).
class UpstreamError : public Error {
public:
    UpstreamError(const std::string& message, unsigned code) : Error(message), code_(code) {}
    unsigned code() const { return code_; }

private:
    unsigned code_;
};

using Row = std::vector<std::optional<std::string>>;

class UpstreamConnection {
public:
    // Connects or throws UpstreamError naming the server (never the password) and what to do.
    explicit UpstreamConnection(const ServerSettings& settings);
    ~UpstreamConnection();
    UpstreamConnection(const UpstreamConnection&) = delete;
    UpstreamConnection& operator=(const UpstreamConnection&) = delete;

    void execute(const std::string& sql);
    std::vector<Row> query(const std::string& sql);
    // The single value of a one-row, one-column query; nullopt for SQL NULL or no row.
    std::optional<std::string> queryValue(const std::string& sql);

    st_mysql* handle() const { return mysql_.get(); }
    const ServerSettings& settings() const { return settings_; }

private:
    [[noreturn]] void fail(const std::string& what) const;

    ServerSettings settings_;
    std::unique_ptr<st_mysql, void (*)(st_mysql*)> mysql_;
};

}  // namespace syncscope::source
