// Tests the two connections of a new task before it is saved: the source (upstream: reachable, binlog
// as the engine needs it) and the target (downstream: reachable). Blocking; run it off the GUI thread.
#pragma once

#include <string>

#include "ui/dialogs/new_task_spec.h"

namespace syncscope::ui {

struct SideCheck {
    bool ok = false;
    std::string message;  // starts with the side ("Source (upstream) ..."), never holds the password
};

struct ConnectionCheck {
    SideCheck source;
    SideCheck target;
    bool ok() const { return source.ok && target.ok; }
};

// directory: where the files will be saved (relative password files resolve there).
ConnectionCheck checkConnections(const NewTaskSpec& spec, const std::string& directory);

}  // namespace syncscope::ui
