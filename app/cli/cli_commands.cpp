#include "app/cli/cli_commands.h"

#include <algorithm>

namespace syncscope::cli {

namespace {
std::vector<Command>& registry() {
    static std::vector<Command> table;
    return table;
}
}  // namespace

CommandRegistration::CommandRegistration(Command command) {
    auto& table = registry();
    table.push_back(command);
    std::sort(table.begin(), table.end(), [](const Command& a, const Command& b) { return a.name < b.name; });
}

const std::vector<Command>& commands() {
    return registry();
}

}  // namespace syncscope::cli
