// The file that undoes a skip: the preview's replay SQL (idempotent upserts of the rows not equal downstream)
// saved beside the task's audit log before the skip is made, and named in the skip's audit entry.
#pragma once

#include <string>

#include "engine/verify/window_preview.h"

namespace syncscope::preview {

// "<folder>/<task>-skipped-<yyyyMMdd-HHmmss-mmm>.sql", local time now.
std::string replaySqlPath(const std::string& folder, const std::string& taskName);

// Writes `sql` to `path` whole or not at all (a temporary file synced and renamed), creating the folder;
// throws Error naming the file and the reason.
void writeReplaySql(const std::string& path, const std::string& sql);

// Both: the preview's replay SQL (headed by `why`) saved under a new name in `folder`; the absolute path.
std::string saveReplaySql(const verify::WindowPreview& preview, const std::string& folder, const std::string& taskName,
                          const std::string& why);

}  // namespace syncscope::preview
