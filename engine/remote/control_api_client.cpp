#include "engine/remote/control_api_client.h"

#include <httplib.h>

#include <filesystem>
#include <memory>

#include "engine/common/sigpipe_blocked.h"
#include "engine/control/listen_address.h"
#include "engine/control/token_file.h"
#include "engine/remote/http_client.h"

namespace syncscope::remote {

namespace {

constexpr int kHttpUnauthorized = 401;
const char* const kJsonType = "application/json";

}  // namespace

RemoteEngineOptions controlEndpoint(const std::string& address, const std::string& caFile,
                                    const std::string& tokenFile) {
    RemoteEngineOptions options;
    std::string rest = address;
    if (rest.starts_with("https://")) {
        options.tls = true;
        rest = rest.substr(8);
    } else if (rest.starts_with("http://")) {
        if (!caFile.empty()) {
            throw RemoteEngineError("--ca is for https: the control address '" + address + "' says http://");
        }
        rest = rest.substr(7);
    } else {
        options.tls = !caFile.empty();
    }
    while (!rest.empty() && rest.back() == '/') {
        rest.pop_back();
    }
    try {
        control::ListenAddress hostPort = control::ListenAddress::parse(rest);
        options.host = hostPort.host;
        options.port = hostPort.port;
    } catch (const Error& e) {
        throw RemoteEngineError("the control address '" + address + "' is not [http[s]://]HOST:PORT: " + e.what());
    }
    if (options.port == 0) {
        throw RemoteEngineError("the control address '" + address +
                                "' has port 0: give the port the engine listens on");
    }
    options.caFile = caFile;
    options.tokenFile = tokenFile;
    return options;
}

ControlApiClient::ControlApiClient(RemoteEngineOptions options) : options_(std::move(options)) {
    if (options_.host.empty() || options_.port <= 0) {
        throw RemoteEngineError("a remote engine needs HOST:PORT, got '" + options_.address() + "'");
    }
    if (options_.tls && !options_.caFile.empty() && !std::filesystem::exists(options_.caFile)) {
        throw RemoteEngineError("the CA file '" + options_.caFile + "' for " + options_.address() + " does not exist");
    }
    if (!options_.tokenFile.empty()) {
        try {
            token_ = control::readTokenFile(options_.tokenFile);
        } catch (const Error& e) {
            throw RemoteEngineError(e.what());
        }
    }
}

ControlApiClient::Answer ControlApiClient::request(const std::string& method, const std::string& path,
                                                   const std::string& body) const {
    std::unique_ptr<httplib::ClientImpl> client = openHttpClient({options_.host,
                                                                  options_.port,
                                                                  options_.tls,
                                                                  options_.caFile,
                                                                  {},
                                                                  {},
                                                                  options_.connectTimeoutSeconds,
                                                                  options_.timeoutSeconds});
    if (!token_.empty()) {
        client->set_bearer_token_auth(token_.c_str());
    }
    SigpipeBlocked quietPipe;
    httplib::Result result = method == "GET" ? client->Get(path.c_str()) : client->Post(path.c_str(), body, kJsonType);
    Answer answer;
    const std::string where = options_.url() + path;
    if (!result) {
        httplib::Error error = result.error();
        answer.error = where + ": " + httplib::to_string(error);
        if (error == httplib::Error::Connection) {
            answer.error += " (nothing answers there: is `syncscope-cli run --listen` running?)";
        } else if (options_.tls && error == httplib::Error::SSLServerVerification) {
            answer.error += options_.caFile.empty()
                                ? std::string(
                                      " (the server's certificate is not signed by a CA of the system's store: "
                                      "give --ca)")
                                : " (the server's certificate is not signed by the CA " + options_.caFile + ")";
        } else if (options_.tls && error == httplib::Error::SSLConnection) {
            answer.error += " (no TLS handshake: is it a plain HTTP port? then use http://)";
        } else if (!options_.tls && (error == httplib::Error::Read || error == httplib::Error::Write)) {
            answer.error += " (the connection was closed: if the engine runs with --tls-cert, use https:// and --ca)";
        }
        return answer;
    }
    answer.status = result->status;
    answer.body = result->body;
    if (answer.status == kHttpUnauthorized) {
        answer.error = where + " refused the token (401): check " +
                       (options_.tokenFile.empty() ? std::string("--token-file (none given)")
                                                   : "the token file " + options_.tokenFile);
    }
    return answer;
}

}  // namespace syncscope::remote
