// Checks that an upstream writes the binary log the engine needs: on, ROW format, FULL row image and
// (where the server has it) FULL row metadata. Each problem names the setting and the fix.
#pragma once

#include <string>
#include <vector>

namespace syncscope::source {

class UpstreamConnection;

struct SettingProblem {
    std::string setting;   // e.g. "binlog_row_metadata"
    std::string actual;    // what the server has
    std::string expected;  // what the engine needs
    std::string fix;       // the statement (and config line) that fixes it
};

std::vector<SettingProblem> checkUpstreamSettings(UpstreamConnection& upstream);

// One message for all problems, naming the server; empty when there are none.
std::string describeSettingProblems(const std::vector<SettingProblem>& problems, const std::string& server);

}  // namespace syncscope::source
