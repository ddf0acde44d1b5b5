// Who may do what on the control API. Without tokens anyone may do everything (the server then listens on
// loopback only); with tokens, the control token may do everything and the read-only token may only GET.
// The tokens are checked against the listening address before the server binds.
#pragma once

#include <string>

#include "engine/control/control_server_options.h"

namespace syncscope::control {

class ControlAccess {
public:
    enum class Level { None, Read, Control };

    // Throws ControlServerError when the tokens do not fit the options: no token for an address that is not
    // loopback, a token shorter than kMinTokenLength, a read-only token without a control token or equal to it.
    explicit ControlAccess(const ControlServerOptions& options);

    // What a request carrying this Authorization header value may do.
    Level levelOf(const std::string& authorization) const;

    // The reasons of a 401 (no or a wrong token; `method` of the request) and of a 403 (the read-only token
    // used for anything but GET).
    std::string unauthorizedReason(const std::string& method) const;
    static std::string forbiddenReason(const std::string& method, const std::string& path);

    bool tokenRequired() const { return !token_.empty(); }

private:
    std::string token_;
    std::string readToken_;
};

}  // namespace syncscope::control
