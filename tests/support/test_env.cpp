#include "tests/support/test_env.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

namespace syncscope::test {

namespace {

constexpr int kDefaultTestUpPort = 23307;
constexpr int kDefaultTestDownPort = 23308;
const char* const kDefaultRootPassword = "syncscope-root";
const char* const kDefaultReplPassword = "syncscope-repl";

std::string envOr(const char* name, const std::string& fallback) {
    const char* value = std::getenv(name);
    return value != nullptr && *value != '\0' ? std::string(value) : fallback;
}

int portFrom(const char* name, int fallback) {
    return std::stoi(envOr(name, std::to_string(fallback)));
}

}  // namespace

ServerSettings upstreamReplication() {
    return {"127.0.0.1", portFrom("SYNCSCOPE_UP_PORT", kDefaultTestUpPort), "syncscope_repl",
            envOr("SYNCSCOPE_REPL_PASSWORD", kDefaultReplPassword)};
}

ServerSettings upstreamRoot() {
    return {"127.0.0.1", portFrom("SYNCSCOPE_UP_PORT", kDefaultTestUpPort), "root",
            envOr("SYNCSCOPE_ROOT_PASSWORD", kDefaultRootPassword)};
}

ServerSettings downstreamRoot() {
    return {"127.0.0.1", portFrom("SYNCSCOPE_DOWN_PORT", kDefaultTestDownPort), "root",
            envOr("SYNCSCOPE_ROOT_PASSWORD", kDefaultRootPassword)};
}

std::string upstreamBinlogDir() {
    return envOr("SYNCSCOPE_DB_DIR", std::string(SYNCSCOPE_BINARY_DIR) + "/test-db") + "/up/binlog";
}

std::string fixturesDir() {
    std::filesystem::path dir(SYNCSCOPE_FIXTURES_DIR);
    std::error_code ec;
    return std::filesystem::is_directory(dir, ec) ? std::filesystem::weakly_canonical(dir).string() : std::string();
}

std::string outputDir(const std::string& suite) {
    std::filesystem::path dir = std::filesystem::path(SYNCSCOPE_BINARY_DIR) / "test-output" / suite;
    std::filesystem::create_directories(dir);
    return dir.string();
}

syncscope::ServerSettings engineSettings(const ServerSettings& settings) {
    syncscope::ServerSettings engine;
    engine.host = settings.host;
    engine.port = settings.port;
    engine.user = settings.user;
    engine.password = settings.password;
    return engine;
}

bool waitFor(const std::function<bool()>& condition, int timeoutMs) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    while (std::chrono::steady_clock::now() < deadline) {
        if (condition()) {
            return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return condition();
}

int freeLoopbackPort() {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof address;
    int port = -1;
    if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
        getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0) {
        port = ntohs(address.sin_port);
    }
    close(fd);
    return port;
}

}  // namespace syncscope::test
