#include "app/cli/cli_commands.h"

namespace syncscope::cli {

const std::vector<Command>& commands() {
    static const std::vector<Command> table = {};
    return table;
}

}  // namespace syncscope::cli
