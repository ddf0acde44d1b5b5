// Applying a finding's fix: only on an explicit request (a click in the GUI, a test), on the server the
// finding names, as the user given, and written to the audit log before it runs.
#pragma once

#include <string>

#include "engine/common/server_settings.h"
#include "engine/precheck/finding.h"
#include "engine/task/audit_log.h"

namespace syncscope::precheck {

// Throws Error when the finding has no runnable fix, or naming the statement and the server's answer
// when one fails (statements before it stay applied: each is its own DDL or SET). The audit log gets an
// entry "precheck-fix" before the first statement and "precheck-fix-failed" when one fails.
void applyFix(const Finding& finding, const ServerSettings& server, task::AuditLog& audit, const std::string& task,
              const std::string& sourceId);

}  // namespace syncscope::precheck
