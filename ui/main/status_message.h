// How long a passing message stays in the main window's status bar (a command's outcome, a notification):
// long enough to read twice, short enough not to be taken for the current state.
#pragma once

namespace syncscope::ui {

constexpr int kStatusMessageMilliseconds = 8000;

}  // namespace syncscope::ui
