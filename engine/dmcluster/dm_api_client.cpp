#include "engine/dmcluster/dm_api_client.h"

#include <httplib.h>

#include <charconv>
#include <filesystem>
#include <fstream>
#include <memory>

#include "engine/common/sigpipe_blocked.h"
#include "engine/remote/http_client.h"

namespace syncscope::dmcluster {

namespace {

constexpr int kHttpBadRequest = 400;
constexpr int kHttpServerErrors = 500;
constexpr int kMaxPort = 65535;
const char* const kJsonType = "application/json";

void checkReadable(const std::string& what, const std::string& path) {
    if (path.empty()) {
        return;
    }
    if (!std::filesystem::is_regular_file(path)) {
        throw DmClusterError("the " + what + " '" + path + "' does not exist or is not a file");
    }
    if (!std::ifstream(path).good()) {
        throw DmClusterError("the " + what + " '" + path + "' cannot be read");
    }
}

MasterEndpoint parseMaster(const std::string& url, bool tlsByDefault) {
    MasterEndpoint master;
    std::string rest = url;
    master.tls = tlsByDefault;
    if (rest.starts_with("https://")) {
        master.tls = true;
        rest = rest.substr(8);
    } else if (rest.starts_with("http://")) {
        master.tls = false;
        rest = rest.substr(7);
    }
    while (!rest.empty() && rest.back() == '/') {
        rest.pop_back();
    }
    // An address with credentials is named without them.
    const size_t at = rest.find('@');
    const std::string shown =
        at == std::string::npos ? url : url.substr(0, url.size() - rest.size()) + "...@" + rest.substr(at + 1);
    const auto bad = [&shown](const std::string& why) {
        return DmClusterError("the dm-master address '" + shown + "' is not [http[s]://]HOST:PORT: " + why);
    };
    if (at != std::string::npos) {
        throw bad("credentials in the address are not used by DM's OpenAPI");
    }
    if (rest.find('/') != std::string::npos) {
        throw bad("give the address only, without a path");
    }
    const size_t colon = rest.rfind(':');
    if (colon == std::string::npos || colon == 0) {
        throw bad("no port (dm-master's default is 8261)");
    }
    master.host = rest.substr(0, colon);
    if (master.host.size() > 2 && master.host.front() == '[' && master.host.back() == ']') {
        master.host = master.host.substr(1, master.host.size() - 2);
    }
    const std::string port = rest.substr(colon + 1);
    auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), master.port);
    if (error != std::errc() || end != port.data() + port.size() || master.port <= 0 || master.port > kMaxPort) {
        throw bad("'" + port + "' is not a port");
    }
    return master;
}

}  // namespace

std::vector<MasterEndpoint> masterEndpoints(const DmClusterOptions& options) {
    if (options.masterUrls.empty()) {
        throw DmClusterError("a DM cluster needs the address of at least one dm-master");
    }
    std::vector<MasterEndpoint> masters;
    for (const auto& url : options.masterUrls) {
        masters.push_back(parseMaster(url, !options.caFile.empty()));
    }
    return masters;
}

DmApiClient::DmApiClient(DmClusterOptions options) : options_(std::move(options)) {
    masters_ = masterEndpoints(options_);
    checkReadable("CA file", options_.caFile);
    checkReadable("client certificate", options_.certFile);
    checkReadable("client key", options_.keyFile);
    if (options_.certFile.empty() != options_.keyFile.empty()) {
        throw DmClusterError("a client certificate needs its key and the other way round (got only the " +
                             std::string(options_.certFile.empty() ? "key" : "certificate") + ")");
    }
}

DmApiClient::Outcome DmApiClient::requestOne(const MasterEndpoint& master, const std::string& method,
                                             const std::string& path, const std::string& body, Answer& answer) const {
    std::unique_ptr<httplib::ClientImpl> client =
        remote::openHttpClient({master.host, master.port, master.tls, options_.caFile, options_.certFile,
                                options_.keyFile, options_.connectTimeoutSeconds, options_.timeoutSeconds});
    SigpipeBlocked quietPipe;
    httplib::Result result = method == "GET" ? client->Get(path.c_str()) : client->Post(path.c_str(), body, kJsonType);
    const std::string where = master.url() + path;
    if (!result) {
        // Named by the master alone: what failed is the connection, whichever call it carried.
        const httplib::Error error = result.error();
        std::string what = master.url() + ": ";
        if (error == httplib::Error::Connection || error == httplib::Error::ConnectionTimeout) {
            what += "cannot connect (no dm-master answers there)";
        } else if (master.tls && error == httplib::Error::SSLServerVerification) {
            what += options_.caFile.empty() ? std::string(
                                                  "the master's certificate is not signed by a CA of the "
                                                  "system's store: give the CA file")
                                            : "the master's certificate is not signed by the CA " + options_.caFile;
        } else if (master.tls && error == httplib::Error::SSLConnection) {
            what += "no TLS handshake (a plain HTTP master? then use http://; or it wants a client certificate)";
        } else if (master.tls && error == httplib::Error::SSLLoadingCerts) {
            what += "the CA, client certificate or key could not be loaded";
        } else {
            what += httplib::to_string(error) + " on " + path;
        }
        answer.error += (answer.error.empty() ? "" : "; ") + what;
        return Outcome::TryNext;
    }
    if (result->status >= kHttpServerErrors || (result->status == kHttpBadRequest && result->body.empty())) {
        // A master that is not the leader forwards to the leader; when it cannot (no leader known, the leader
        // down), it answers 502 or an empty 400, and another master may be the leader.
        answer.error += (answer.error.empty() ? "" : "; ") + where + ": HTTP " + std::to_string(result->status) +
                        " (not the leader, and it could not reach one)";
        return Outcome::TryNext;
    }
    answer.status = result->status;
    answer.body = result->body;
    answer.master = master.url();
    return Outcome::Answered;
}

DmApiClient::Answer DmApiClient::request(const std::string& method, const std::string& path,
                                         const std::string& body) const {
    Answer answer;
    const size_t first = preferred_.load();
    for (size_t step = 0; step < masters_.size(); ++step) {
        const size_t index = (first + step) % masters_.size();
        if (requestOne(masters_[index], method, path, body, answer) == Outcome::Answered) {
            preferred_.store(index);
            answer.error.clear();
            return answer;
        }
    }
    if (masters_.size() > 1) {
        answer.error = "no dm-master answered: " + answer.error;
    }
    return answer;
}

}  // namespace syncscope::dmcluster
