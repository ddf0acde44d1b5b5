// The last lines of a text file (the task's log and audit log), read from the end without loading the
// whole file, for the control API's log and audit tails.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace syncscope::control {

// At most maxLines complete lines from the end of the file, oldest first; empty when the file does not
// exist. Reads at most maxBytes from the end (a longer line is cut at its start).
std::vector<std::string> tailLines(const std::string& path, size_t maxLines, size_t maxBytes);

}  // namespace syncscope::control
