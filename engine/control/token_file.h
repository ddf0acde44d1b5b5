// A bearer token kept in a file (run --token-file / --read-token-file, a remote engine's token file, the
// CLI's remote commands): its first line, trailing spaces and CR removed.
// Tokens are read from files, never from the command line, where `ps` would show them.
#pragma once

#include <string>

namespace syncscope::control {

// Throws Error naming the file when it cannot be read or its first line is empty (an empty token would
// turn authentication off without a word).
std::string readTokenFile(const std::string& path);

}  // namespace syncscope::control
