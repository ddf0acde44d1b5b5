// The result of one precheck: every finding, the areas that were checked, and the exit code a
// script acts on (0 nothing worse than notes, 1 warnings, 2 errors). As text for a terminal and as
// JSON for scripts and the GUI.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/precheck/finding.h"

namespace syncscope::precheck {

struct PrecheckReport {
    static constexpr int kExitOk = 0;
    static constexpr int kExitWarnings = 1;
    static constexpr int kExitErrors = 2;

    std::string task;
    std::string sourceId;
    std::string upstream;    // user@host:port
    std::string downstream;  // user@host:port
    size_t tablesChecked = 0;
    std::vector<std::string> areas;  // what was checked, e.g. "upstream settings"
    std::vector<Finding> findings;   // errors first, then warnings, then notes

    size_t count(Severity severity) const;
    int exitCode() const;
    // Findings of one check id (tests and the GUI use it).
    std::vector<const Finding*> withCheck(const std::string& check) const;
};

nlohmann::json toJson(const PrecheckReport& report);
std::string toText(const PrecheckReport& report);

}  // namespace syncscope::precheck
