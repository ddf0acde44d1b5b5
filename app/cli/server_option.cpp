#include "app/cli/server_option.h"

#include <charconv>
#include <fstream>

#include "engine/common/error.h"

namespace syncscope::cli {

ServerSettings serverFromOptions(const std::string& option, const std::string& hostPort, const std::string& user,
                                 const std::string& passwordFile) {
    constexpr int kMaxPort = 65535;
    size_t colon = hostPort.rfind(':');
    int port = 0;
    if (colon == std::string::npos || colon == 0) {
        throw ServerOptionError(option + " '" + hostPort + "' is not HOST:PORT");
    }
    const char* first = hostPort.data() + colon + 1;
    const char* last = hostPort.data() + hostPort.size();
    auto [end, ec] = std::from_chars(first, last, port);
    if (ec != std::errc() || end != last || port <= 0 || port > kMaxPort) {
        throw ServerOptionError(option + " '" + hostPort + "': the port must be 1 to 65535");
    }
    ServerSettings settings;
    settings.host = hostPort.substr(0, colon);
    settings.port = port;
    settings.user = user;
    std::ifstream in(passwordFile);
    if (!in) {
        throw Error("cannot read password file '" + passwordFile + "'");
    }
    std::getline(in, settings.password);
    if (!settings.password.empty() && settings.password.back() == '\r') {
        settings.password.pop_back();
    }
    return settings;
}

}  // namespace syncscope::cli
