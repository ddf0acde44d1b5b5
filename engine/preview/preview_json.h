// A skip or resume-from preview as JSON: whole for the HTTP API and `syncscope-cli preview --json`, counted
// for the audit entry that names its replay SQL.
#pragma once

#include <nlohmann/json.hpp>

#include "engine/verify/window_preview.h"

namespace syncscope::preview {

// The window, its transactions, every row with its downstream state (key, final image, differing columns)
// and the tables that could not be checked.
nlohmann::json previewJson(const verify::WindowPreview& preview);

// The window and its rows counted by downstream state: what an audit entry keeps.
nlohmann::json previewCounts(const verify::WindowPreview& preview);

}  // namespace syncscope::preview
