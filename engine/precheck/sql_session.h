// The precheck reads both servers the same way: rows of optional strings. An upstream session runs
// over MariaDB Connector/C (the source's connection), a downstream one over Connector/C++ (the
// applier's), so connection errors name the side in the words the engine uses elsewhere.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/common/server_settings.h"

namespace syncscope::precheck {

using SqlRow = std::vector<std::optional<std::string>>;

class SqlSession {
public:
    virtual ~SqlSession() = default;
    virtual std::vector<SqlRow> query(const std::string& sql) = 0;
    virtual void execute(const std::string& sql) = 0;
    // "upstream user@host:port" or "downstream user@host:port"; never the password.
    virtual std::string server() const = 0;

    // The single value of a one-row, one-column query; nullopt for NULL or no row.
    std::optional<std::string> queryValue(const std::string& sql);
    // SHOW GLOBAL VARIABLES LIKE 'name'; nullopt when the server has no such variable.
    std::optional<std::string> globalVariable(const std::string& name);
};

// Connect or throw syncscope::Error naming the side and the server.
std::unique_ptr<SqlSession> connectUpstreamSession(const ServerSettings& settings);
std::unique_ptr<SqlSession> connectDownstreamSession(const ServerSettings& settings);

// 'text' with quotes and backslashes escaped: a string literal safe to paste into SQL.
std::string sqlString(const std::string& text);

}  // namespace syncscope::precheck
