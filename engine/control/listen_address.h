// Where the control API listens: HOST:PORT from the command line, and whether that is loopback (only
// a loopback address may be served without a token).
#pragma once

#include <string>

#include "engine/common/error.h"

namespace syncscope::control {

struct ListenAddress {
    std::string host = "127.0.0.1";
    int port = 0;  // 0: any free port

    // "127.0.0.1:8261", "[::1]:8261", "localhost:8261". Throws Error naming the text and what is wrong.
    static ListenAddress parse(const std::string& text);
    // 127.0.0.0/8, ::1 and localhost.
    bool isLoopback() const;
};

}  // namespace syncscope::control
