// How to reach one MySQL/MariaDB server: the connection part of DM's `from` and `target-database`.
#pragma once

#include <string>
#include <utility>

namespace syncscope {

struct TlsSettings {
    std::string caFile;    // DM's ssl-ca
    std::string certFile;  // DM's ssl-cert
    std::string keyFile;   // DM's ssl-key
    bool enabled() const { return !caFile.empty() || !certFile.empty() || !keyFile.empty(); }
    // "ssl-ca '/p/ca.pem', ssl-cert '...', ssl-key '...'" (the keys set), for messages.
    std::string describe() const {
        std::string text;
        for (const auto& [key, file] : {std::pair{"ssl-ca", &caFile}, {"ssl-cert", &certFile}, {"ssl-key", &keyFile}}) {
            if (!file->empty()) {
                text += (text.empty() ? "" : ", ") + std::string(key) + " '" + *file + "'";
            }
        }
        return text;
    }
};

struct ServerSettings {
    std::string host = "127.0.0.1";
    int port = 3306;
    std::string user;
    std::string password;  // never printed: use describe() in messages
    TlsSettings tls;
    int connectTimeoutSeconds = 10;
    int readTimeoutSeconds = 30;

    // "user@host:port", the form every message uses; it never contains the password.
    std::string describe() const { return user + "@" + host + ":" + std::to_string(port); }
};

}  // namespace syncscope
