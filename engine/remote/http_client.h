// One HTTP or HTTPS client to another server (a remote SyncScope engine, a dm-master): over TLS the server's
// certificate is verified against the CA file given (else the system's store), with a client certificate and
// key when given; the connection and answer timeouts set. Shared by the remote engine's and the DM cluster's
// clients, which each name their own errors.
#pragma once

#include <memory>
#include <string>

namespace httplib {
class ClientImpl;
}

namespace syncscope::remote {

struct HttpClientSettings {
    std::string host;
    int port = 0;
    bool tls = false;
    std::string caFile;    // empty: the system's store
    std::string certFile;  // a client certificate, with keyFile; empty: none
    std::string keyFile;
    int connectTimeoutSeconds = 0;
    int timeoutSeconds = 0;
};

std::unique_ptr<httplib::ClientImpl> openHttpClient(const HttpClientSettings& settings);

}  // namespace syncscope::remote
