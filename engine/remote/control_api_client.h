// The one client of a SyncScope engine's control API (`syncscope-cli run --listen`), over HTTP or
// HTTPS: the GUI's remote engines and every remote command of the CLI (preview, resume-from, verify
// --control) use it. Each failure comes back as one line that names the address and what to check: a
// refused connection, a certificate the CA did not sign, an HTTPS port asked in plain HTTP and the
// other way round, a refused token.
#pragma once

#include <chrono>
#include <string>

#include "engine/common/error.h"

namespace syncscope::remote {

struct RemoteEngineOptions {
    static constexpr std::chrono::milliseconds kDefaultPollInterval{250};
    static constexpr int kDefaultTimeoutSeconds = 3;

    std::string host;
    int port = 0;
    bool tls = false;       // https; the server's certificate is verified against caFile
    std::string caFile;     // PEM of the CA to trust (TLS only)
    std::string tokenFile;  // the bearer token, first line of this file; empty: none
    std::chrono::milliseconds pollInterval = kDefaultPollInterval;
    int timeoutSeconds = kDefaultTimeoutSeconds;         // an answer (a preview may take minutes)
    int connectTimeoutSeconds = kDefaultTimeoutSeconds;  // the connection

    std::string address() const { return host + ":" + std::to_string(port); }
    std::string url() const { return (tls ? "https://" : "http://") + address(); }
};

// Why the options cannot work (a token file that cannot be read, a CA file missing, an address that is
// not [http[s]://]HOST:PORT): named in the text.
class RemoteEngineError : public Error {
public:
    using Error::Error;
};

// `[http://|https://]HOST:PORT` with the CLI's --ca and --token-file: https when the address says so or
// a CA is given (the system's CA store when https has no --ca).
RemoteEngineOptions controlEndpoint(const std::string& address, const std::string& caFile,
                                    const std::string& tokenFile);

class ControlApiClient {
public:
    struct Answer {
        int status = 0;  // 0: no answer (error says why)
        std::string body;
        std::string error;  // one line: the address, what failed, what to check
        bool ok() const { return error.empty(); }
    };

    // Reads the token file at once; throws RemoteEngineError naming a file that cannot be used.
    explicit ControlApiClient(RemoteEngineOptions options);

    Answer get(const std::string& path) const { return request("GET", path, {}); }
    Answer post(const std::string& path, const std::string& body) const { return request("POST", path, body); }
    const RemoteEngineOptions& options() const { return options_; }

private:
    Answer request(const std::string& method, const std::string& path, const std::string& body) const;

    RemoteEngineOptions options_;
    std::string token_;
};

}  // namespace syncscope::remote
