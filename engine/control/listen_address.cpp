#include "engine/control/listen_address.h"

#include <arpa/inet.h>

#include <charconv>

namespace syncscope::control {

namespace {

constexpr int kMaxPort = 65535;

}  // namespace

ListenAddress ListenAddress::parse(const std::string& text) {
    size_t colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0) {
        throw Error("listen address '" + text + "' is not HOST:PORT (for example 127.0.0.1:8261)");
    }
    ListenAddress address;
    address.host = text.substr(0, colon);
    if (address.host.size() >= 2 && address.host.front() == '[' && address.host.back() == ']') {
        address.host = address.host.substr(1, address.host.size() - 2);
    }
    std::string portText = text.substr(colon + 1);
    auto [end, ec] = std::from_chars(portText.data(), portText.data() + portText.size(), address.port);
    if (ec != std::errc() || end != portText.data() + portText.size() || address.port < 0 || address.port > kMaxPort) {
        throw Error("listen address '" + text + "': port '" + portText + "' is not a number from 0 to 65535");
    }
    if (address.host.empty()) {
        throw Error("listen address '" + text + "' has no host");
    }
    return address;
}

bool ListenAddress::isLoopback() const {
    constexpr uint32_t kLoopbackNet = 127;
    constexpr int kNetShift = 24;
    in_addr v4{};
    if (inet_pton(AF_INET, host.c_str(), &v4) == 1) {
        return (ntohl(v4.s_addr) >> kNetShift) == kLoopbackNet;
    }
    in6_addr v6{};
    if (inet_pton(AF_INET6, host.c_str(), &v6) == 1) {
        return IN6_IS_ADDR_LOOPBACK(&v6);
    }
    return host == "localhost";
}

}  // namespace syncscope::control
