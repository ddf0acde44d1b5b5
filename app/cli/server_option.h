// "--server HOST:PORT --user U --password-file F" as ServerSettings, for the commands that read a server.
#pragma once

#include <stdexcept>
#include <string>

#include "engine/common/server_settings.h"

namespace syncscope::cli {

struct ServerOptionError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Throws ServerOptionError for a bad HOST:PORT (a usage error), Error for an unreadable password file.
ServerSettings serverFromOptions(const std::string& option, const std::string& hostPort, const std::string& user,
                                 const std::string& passwordFile);

}  // namespace syncscope::cli
