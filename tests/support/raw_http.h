// One HTTP/1.1 exchange written byte for byte, for requests that client libraries will not send as a
// DBA's tool does (curl -X POST with no body and no Content-Length) or cannot send at all (malformed).
#pragma once

#include <string>

namespace syncscope::test {

struct RawHttpAnswer {
    int status = 0;  // 0: no answer (connection refused, closed or timed out); see problem
    std::string body;
    std::string problem;
};

// Sends `request` as it is to 127.0.0.1:port and reads one response (headers, then Content-Length
// bytes of body, or until the server closes). Gives up after timeoutSeconds without data.
RawHttpAnswer rawHttpExchange(int port, const std::string& request, int timeoutSeconds = 10);

}  // namespace syncscope::test
