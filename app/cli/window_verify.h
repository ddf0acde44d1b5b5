// `syncscope-cli checkpoints --verify`: every table point ahead of its global point gets its skip
// window verified row by row against the downstream (engine/verify/skip_window_verifier.h), and with
// --repair the rows that are wrong are fixed from the window's final images (audited).
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>

#include "engine/common/server_settings.h"
#include "engine/common/state_directory.h"
#include "engine/inspect/inspection_report.h"

namespace syncscope::cli {

struct WindowVerifyOptions {
    ServerSettings target;
    ServerSettings upstream;
    bool repair = false;
    std::string logDir = defaultLogDirectory();  // the audit log of a repair: DIR/<task>-audit.jsonl
};

struct WindowVerifyOutcome {
    nlohmann::json json = nlohmann::json::array();
    size_t windows = 0;
    size_t wrongRows = 0;  // before any repair
    size_t failed = 0;     // windows that could not be verified
};

// With --verify: 0 when every window's rows are right, 1 when some are wrong, 2 when a window could not be verified.
int windowVerifyExitCode(const WindowVerifyOutcome& outcome);

// Verifies every skip window of `report`, printing what it finds as text to `out` (unless null).
WindowVerifyOutcome verifySkipWindows(const inspect::InspectionReport& report, const WindowVerifyOptions& options,
                                      std::ostream* out);

}  // namespace syncscope::cli
