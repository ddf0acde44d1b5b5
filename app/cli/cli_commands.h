// The registry of syncscope-cli subcommands. Each subcommand lives in its own file in app/cli/ and
// registers itself with a file-scope `const CommandRegistration`, so adding one edits no shared file.
#pragma once

#include <span>
#include <string_view>
#include <vector>

namespace syncscope::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  // bad input or a failed operation
inline constexpr int kExitUsage = 2;    // bad command line

struct Command {
    std::string_view name;
    std::string_view summary;
    int (*run)(std::span<char*> args);  // args after the command name
};

// Every registered command, sorted by name.
const std::vector<Command>& commands();

// Whether any argument is --help or -h (the command then prints its usage and exits 0).
inline bool asksForHelp(std::span<char*> args) {
    for (const char* arg : args) {
        if (std::string_view(arg) == "--help" || std::string_view(arg) == "-h") {
            return true;
        }
    }
    return false;
}

struct CommandRegistration {
    explicit CommandRegistration(Command command);
};

}  // namespace syncscope::cli
