#include "tests/support/test_env.h"

#include <cstdlib>
#include <filesystem>

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

}  // namespace syncscope::test
