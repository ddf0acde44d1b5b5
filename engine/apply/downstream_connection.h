// A connection to the downstream through MySQL Connector/C++ 1.1, where the engine applies rows and
// keeps its checkpoint table.
#pragma once

#include <memory>
#include <string>

#include "engine/common/error.h"
#include "engine/common/server_settings.h"

namespace sql {
class Connection;
}

namespace syncscope::apply {

// An error from the downstream with the server's error code (0 when the client failed on its own).
class DownstreamError : public Error {
public:
    DownstreamError(const std::string& message, int code) : Error(message), code_(code) {}
    int code() const { return code_; }

private:
    int code_;
};

// Connects or throws DownstreamError naming the server (never the password).
std::unique_ptr<sql::Connection> connectDownstream(const ServerSettings& settings);

}  // namespace syncscope::apply
