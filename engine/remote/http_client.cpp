#include "engine/remote/http_client.h"

#include <httplib.h>

namespace syncscope::remote {

std::unique_ptr<httplib::ClientImpl> openHttpClient(const HttpClientSettings& settings) {
    std::unique_ptr<httplib::ClientImpl> client;
    if (settings.tls) {
        auto ssl = settings.certFile.empty() ? std::make_unique<httplib::SSLClient>(settings.host, settings.port)
                                             : std::make_unique<httplib::SSLClient>(
                                                   settings.host, settings.port, settings.certFile, settings.keyFile);
        if (!settings.caFile.empty()) {
            ssl->set_ca_cert_path(settings.caFile.c_str());
        }
        ssl->enable_server_certificate_verification(true);
        client = std::move(ssl);
    } else {
        client = std::make_unique<httplib::ClientImpl>(settings.host, settings.port);
    }
    client->set_connection_timeout(settings.connectTimeoutSeconds, 0);
    client->set_read_timeout(settings.timeoutSeconds, 0);
    client->set_write_timeout(settings.timeoutSeconds, 0);
    return client;
}

}  // namespace syncscope::remote
