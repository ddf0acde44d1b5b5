// syncscope-cli: the headless front end. Dispatches to one subcommand per file in this folder.
#include <algorithm>
#include <iostream>
#include <span>
#include <string>
#include <string_view>

#include <spdlog/spdlog.h>

#include "app/cli/cli_commands.h"
#include "engine/common/redacting_sink.h"
#include "engine/common/version.h"

namespace {

void printUsage(std::ostream& out) {
    out << "Usage: syncscope-cli COMMAND [ARGS...]\n"
           "       syncscope-cli --help | --version\n\n"
           "Commands:\n";
    for (const auto& command : syncscope::cli::commands()) {
        out << "  " << command.name << std::string(12 - std::min<size_t>(11, command.name.size()), ' ')
            << command.summary << '\n';
    }
    out << "\nRun 'syncscope-cli COMMAND --help' for the options of one command.\n";
}

}  // namespace

int main(int argc, char** argv) {
    std::span<char*> args(argv, static_cast<size_t>(argc));
    // Every command logs through spdlog: a statement's password is logged as '<redacted>' (run replaces
    // the logger with its own, redacted the same way).
    syncscope::redactSecretsIn(*spdlog::default_logger());
    if (args.size() < 2) {
        printUsage(std::cerr);
        return syncscope::cli::kExitUsage;
    }
    std::string_view first = args[1];
    if (first == "--help" || first == "-h" || first == "help") {
        printUsage(std::cout);
        return 0;
    }
    if (first == "--version" || first == "-V") {
        std::cout << "syncscope-cli " << syncscope::kVersion << '\n';
        return 0;
    }
    for (const auto& command : syncscope::cli::commands()) {
        if (command.name == first) {
            return command.run(args.subspan(2));
        }
    }
    std::cerr << "syncscope-cli: unknown command '" << first << "'\n";
    printUsage(std::cerr);
    return syncscope::cli::kExitUsage;
}
