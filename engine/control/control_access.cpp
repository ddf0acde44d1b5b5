#include "engine/control/control_access.h"

#include <string_view>

#include "engine/control/listen_address.h"

namespace syncscope::control {

namespace {

const char* const kBearerPrefix = "Bearer ";

// Compares without an early exit, so that the time taken says nothing about the token.
bool sameToken(const std::string& given, const std::string& expected) {
    unsigned char difference = given.size() == expected.size() ? 0 : 1;
    for (size_t i = 0; i < given.size(); ++i) {
        difference |= static_cast<unsigned char>(given[i] ^ expected[i % expected.size()]);
    }
    return difference == 0;
}

std::string tooShort(const char* which, size_t length) {
    return std::string(which) + " is " + std::to_string(length) + " characters long; use at least " +
           std::to_string(ControlServerOptions::kMinTokenLength);
}

}  // namespace

ControlAccess::ControlAccess(const ControlServerOptions& options)
    : token_(options.token), readToken_(options.readToken) {
    ListenAddress address{options.host, options.port};
    if (!address.isLoopback() && token_.empty()) {
        throw ControlServerError("refusing to serve the control API on " + options.host +
                                 ", which is not a loopback address, without a token: give one (--token-file) "
                                 "or listen on 127.0.0.1");
    }
    if (!token_.empty() && token_.size() < ControlServerOptions::kMinTokenLength) {
        throw ControlServerError(tooShort("the control API token", token_.size()));
    }
    if (!readToken_.empty() && token_.empty()) {
        throw ControlServerError(
            "a read-only token (--read-token-file) needs the control token (--token-file): "
            "without it every command would be open");
    }
    if (!readToken_.empty() && readToken_.size() < ControlServerOptions::kMinTokenLength) {
        throw ControlServerError(tooShort("the read-only token", readToken_.size()));
    }
    if (!readToken_.empty() && readToken_ == token_) {
        throw ControlServerError("the read-only token is the control token: give a different one");
    }
}

ControlAccess::Level ControlAccess::levelOf(const std::string& authorization) const {
    if (token_.empty()) {
        return Level::Control;
    }
    if (!authorization.starts_with(kBearerPrefix)) {
        return Level::None;
    }
    std::string given = authorization.substr(std::string_view(kBearerPrefix).size());
    if (sameToken(given, token_)) {
        return Level::Control;
    }
    return !readToken_.empty() && sameToken(given, readToken_) ? Level::Read : Level::None;
}

std::string ControlAccess::unauthorizedReason(const std::string& method) const {
    return method == "GET" && !readToken_.empty()
               ? "missing or wrong bearer token (Authorization: Bearer <token>): reading needs the read token or "
                 "the control token"
               : "missing or wrong bearer token (Authorization: Bearer <token>): this needs the control token";
}

std::string ControlAccess::forbiddenReason(const std::string& method, const std::string& path) {
    return "the read-only token may only read: " + method + " " + path + " needs the control token (run --token-file)";
}

}  // namespace syncscope::control
