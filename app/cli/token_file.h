// The bearer token of the control API, read from a file (never from the command line, where `ps`
// would show it).
#pragma once

#include <string>

namespace syncscope::cli {

// The first line of the file, without its line end. Throws std::runtime_error naming the file.
std::string readTokenFile(const std::string& file);

}  // namespace syncscope::cli
