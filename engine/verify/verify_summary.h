// The last verify of a task, per table (outcome, where it was verified, chunks, rows, differences),
// saved as JSON beside the task's logs (<log-dir>/<task>-verify.json) so that the running task's
// control API can serve it in its status and metrics (engine/control/verify_status.h).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "engine/verify/task_verifier.h"

namespace syncscope::verify {

// {"finished_at": unix seconds, "seconds": ..., "tables": [{"upstream", "downstream", "outcome",
//  "verified_at", "chunks_done", "chunks_total", "rows_compared", "differences", "problem"}]}
nlohmann::json verifySummary(const VerifyReport& report);

// Writes the file whole (a temporary file renamed over it). Throws VerifyError naming the file.
void saveVerifySummary(const std::string& path, const nlohmann::json& summary);

}  // namespace syncscope::verify
