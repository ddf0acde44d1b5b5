#include "engine/common/state_directory.h"

#include <cstdlib>

namespace syncscope {

namespace {

constexpr const char* kAppFolder = "/syncscope/logs";
constexpr const char* kFallback = "syncscope-logs";

bool isAbsolute(const char* path) {
    return path != nullptr && path[0] == '/';
}

}  // namespace

std::string defaultLogDirectory() {
    // The XDG spec ignores relative values of its variables.
    if (const char* state = std::getenv("XDG_STATE_HOME"); isAbsolute(state)) {
        return std::string(state) + kAppFolder;
    }
    if (const char* home = std::getenv("HOME"); isAbsolute(home)) {
        return std::string(home) + "/.local/state" + kAppFolder;
    }
    return kFallback;
}

}  // namespace syncscope
