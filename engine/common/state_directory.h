// Where the engine keeps its logs and audit trail when nobody says otherwise: the platform's state
// directory (XDG Base Directory: $XDG_STATE_HOME, else ~/.local/state), in a folder of its own.
#pragma once

#include <string>

namespace syncscope {

// "$XDG_STATE_HOME/syncscope/logs", else "$HOME/.local/state/syncscope/logs", else "./syncscope-logs"
// when neither variable is set (a service account without a home).
std::string defaultLogDirectory();

}  // namespace syncscope
