// How `syncscope-cli verify` shows a verify report: text for a person, JSON for scripts.
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>

#include "engine/verify/task_verifier.h"

namespace syncscope::cli {

nlohmann::json verifyReportJson(const verify::VerifyReport& report);
void printVerifyReport(const verify::VerifyReport& report, std::ostream& out);

}  // namespace syncscope::cli
