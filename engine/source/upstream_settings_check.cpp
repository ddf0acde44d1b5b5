#include "engine/source/upstream_settings_check.h"

#include <algorithm>
#include <cctype>

#include "engine/source/upstream_connection.h"

namespace syncscope::source {

namespace {

struct Requirement {
    const char* setting;
    const char* expected;
    bool settableAtRuntime;
};

// binlog_row_metadata exists from MariaDB 10.5 and MySQL 8.0; a server without it is not asked for it.
constexpr Requirement kRequirements[] = {
    {"log_bin", "ON", false},
    {"binlog_format", "ROW", true},
    {"binlog_row_image", "FULL", true},
    {"binlog_row_metadata", "FULL", true},
};

std::string upper(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
    return text;
}

}  // namespace

std::vector<SettingProblem> checkUpstreamSettings(UpstreamConnection& upstream) {
    std::vector<SettingProblem> problems;
    for (const Requirement& requirement : kRequirements) {
        auto rows = upstream.query(std::string("SHOW GLOBAL VARIABLES LIKE '") + requirement.setting + "'");
        if (rows.empty() || rows.front().size() < 2 || !rows.front()[1]) {
            continue;
        }
        std::string actual = upper(*rows.front()[1]);
        if (actual == requirement.expected) {
            continue;
        }
        std::string configLine = std::string(requirement.setting) + " = " + requirement.expected;
        if (std::string(requirement.setting) == "log_bin") {
            configLine = "log_bin = <path of the binary log>";
        }
        std::string fix = requirement.settableAtRuntime
                              ? "SET GLOBAL " + std::string(requirement.setting) + " = '" + requirement.expected +
                                    "'; and put '" + configLine + "' in the server's [mariadb] config section"
                              : "put '" + configLine + "' in the server's config and restart it";
        problems.push_back({requirement.setting, actual, requirement.expected, fix});
    }
    return problems;
}

std::string describeSettingProblems(const std::vector<SettingProblem>& problems, const std::string& server) {
    std::string message;
    for (const SettingProblem& problem : problems) {
        message += (message.empty() ? "upstream " + server + ": " : "; ");
        message += problem.setting + " is " + problem.actual + " but must be " + problem.expected + " (fix: " +
                   problem.fix + ")";
    }
    return message;
}

}  // namespace syncscope::source
