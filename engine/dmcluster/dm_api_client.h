// The HTTP client of a DM cluster's OpenAPI, over several dm-master addresses: each request goes first to
// the master that answered last, and to the next one when a master does not answer, or answers as a
// master that is not the leader and cannot reach the one that is (502, or 400 with no body). TLS with a CA,
// and a client certificate and key when DM asks for one. Every failure is one line naming the master URL
// and what went wrong; nothing secret is in it.
#pragma once

#include <atomic>
#include <chrono>
#include <string>
#include <vector>

#include "engine/common/error.h"

namespace syncscope::dmcluster {

struct DmClusterOptions {
    static constexpr std::chrono::milliseconds kDefaultPollInterval{1000};
    static constexpr int kDefaultTimeoutSeconds = 5;

    std::vector<std::string> masterUrls;  // [http[s]://]HOST:PORT, tried in turn
    std::string caFile;                   // PEM of the CA that signed the masters' certificates (https)
    std::string certFile;                 // client certificate and key, when DM's TLS asks for one
    std::string keyFile;
    std::string auditLogPath;  // JSON Lines of the commands sent; empty: none
    std::chrono::milliseconds pollInterval = kDefaultPollInterval;
    int timeoutSeconds = kDefaultTimeoutSeconds;
    int connectTimeoutSeconds = kDefaultTimeoutSeconds;
};

// Options that cannot work (no master, an address that is not [http[s]://]HOST:PORT, a CA, certificate or
// key file that cannot be read), named in the text.
class DmClusterError : public Error {
public:
    using Error::Error;
};

struct MasterEndpoint {
    bool tls = false;
    std::string host;
    int port = 0;
    std::string url() const { return (tls ? "https://" : "http://") + host + ":" + std::to_string(port); }
};

// The masters of `options`: https when the address says so or a CA is given. Throws DmClusterError.
std::vector<MasterEndpoint> masterEndpoints(const DmClusterOptions& options);

class DmApiClient {
public:
    struct Answer {
        int status = 0;  // 0: no master answered (error says why)
        std::string body;
        std::string master;  // the URL of the master that answered
        std::string error;   // one line: each master tried and what failed
        bool answered() const { return status != 0; }
    };

    // Checks the options at once (throws DmClusterError naming what cannot be used).
    explicit DmApiClient(DmClusterOptions options);

    Answer get(const std::string& path) const { return request("GET", path, {}); }
    Answer post(const std::string& path, const std::string& body) const { return request("POST", path, body); }
    const DmClusterOptions& options() const { return options_; }
    const std::vector<MasterEndpoint>& masters() const { return masters_; }
    std::string preferredMaster() const { return masters_[preferred_.load()].url(); }  // tried first

private:
    enum class Outcome { Answered, TryNext };
    Outcome requestOne(const MasterEndpoint& master, const std::string& method, const std::string& path,
                       const std::string& body, Answer& answer) const;
    Answer request(const std::string& method, const std::string& path, const std::string& body) const;

    DmClusterOptions options_;
    std::vector<MasterEndpoint> masters_;
    mutable std::atomic<size_t> preferred_{0};  // the master that answered last
};

}  // namespace syncscope::dmcluster
