#include "engine/precheck/upstream_checks.h"

#include <algorithm>
#include <cctype>

#include "engine/filter/table_name.h"
#include "engine/precheck/grants.h"
#include "engine/precheck/sql_session.h"

namespace syncscope::precheck {

namespace {

constexpr std::chrono::seconds kMinimumRetention = std::chrono::hours(24 * 7);
constexpr int kRetentionCoverage = 2;  // retention covers the expected lag this many times
constexpr long long kSecondsPerDay = 24 * 60 * 60;

struct Requirement {
    const char* setting;
    const char* expected;
    const char* impact;
};

constexpr Requirement kBinlogRequirements[] = {
    {"binlog_format", "ROW",
     "the engine applies row images; a STATEMENT or MIXED binlog carries SQL text for some changes, which the engine "
     "refuses at start"},
    {"binlog_row_image", "FULL",
     "the engine finds rows downstream by their full before-image and writes full after-images; with MINIMAL or "
     "NOBLOB images columns are missing and updates cannot be applied"},
    {"binlog_row_metadata", "FULL",
     "the engine takes column names, signedness and the primary key from the binlog's table maps; without FULL "
     "metadata it cannot name columns and refuses to start"},
};

std::string upper(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
    return text;
}

bool isOn(const std::optional<std::string>& value) {
    return value && (upper(*value) == "ON" || *value == "1");
}

void checkGtid(SqlSession& upstream, bool mariadb, std::vector<Finding>& findings) {
    const std::string server = upstream.server();
    if (mariadb) {
        auto strict = upstream.globalVariable("gtid_strict_mode");
        if (strict && !isOn(strict)) {
            findings.push_back(sqlFinding(
                "upstream.gtid_strict_mode", Severity::Warning, server,
                "enable-gtid is true but gtid_strict_mode is " + *strict,
                "without strict mode a GTID position can name events out of order, so a resume from the persisted "
                "GTID set may skip or repeat transactions",
                FixTarget::Upstream, {"SET GLOBAL gtid_strict_mode = ON"},
                "and put 'gtid_strict_mode = ON' in the server's [mariadb] config section"));
        }
        return;
    }
    for (const char* setting : {"gtid_mode", "enforce_gtid_consistency"}) {
        auto value = upstream.globalVariable(setting);
        if (value && !isOn(value)) {
            findings.push_back(sqlFinding(
                std::string("upstream.") + setting, Severity::Error, server,
                "enable-gtid is true but " + std::string(setting) + " is " + *value,
                "the engine resumes from a GTID set: without GTIDs in the binlog the task cannot start",
                FixTarget::Upstream, {"SET GLOBAL " + std::string(setting) + " = ON"},
                "gtid_mode steps OFF -> OFF_PERMISSIVE -> ON_PERMISSIVE -> ON; put it in the server's config too"));
        }
    }
}

void checkRetention(SqlSession& upstream, std::chrono::seconds expectedLag, std::vector<Finding>& findings) {
    long long seconds = 0;
    std::string setting;
    if (auto value = upstream.globalVariable("binlog_expire_logs_seconds"); value && !value->empty()) {
        seconds = std::stoll(*value);
        setting = "binlog_expire_logs_seconds = " + *value;
    }
    if (seconds == 0) {
        if (auto days = upstream.globalVariable("expire_logs_days"); days && !days->empty()) {
            seconds = static_cast<long long>(std::stod(*days) * kSecondsPerDay);
            setting = "expire_logs_days = " + *days;
        }
    }
    if (seconds == 0 || std::chrono::seconds(seconds) >= expectedLag * kRetentionCoverage) {
        return;  // 0: binlogs are never purged by age
    }
    const long long recommended = recommendedRetention(expectedLag).count();
    findings.push_back(sqlFinding(
        "upstream.binlog_retention", Severity::Warning, upstream.server(),
        "binlogs are purged after " + std::to_string(seconds) + " s (" + setting +
            "), less than twice the expected lag of " + std::to_string(expectedLag.count()) + " s",
        "a task that falls behind or stays stopped longer than that finds its checkpoint in a purged file and "
        "cannot resume without a reload",
        FixTarget::Upstream, {"SET GLOBAL binlog_expire_logs_seconds = " + std::to_string(recommended)},
        "and put 'binlog_expire_logs_seconds = " + std::to_string(recommended) + "' in the server's config"));
}

}  // namespace

std::chrono::seconds recommendedRetention(std::chrono::seconds expectedLag) {
    return std::max(kMinimumRetention, expectedLag * kRetentionCoverage);
}

long long binlogFileNumber(const std::string& name) {
    size_t dot = name.rfind('.');
    if (dot == std::string::npos || dot + 1 >= name.size()) {
        return -1;
    }
    std::string digits = name.substr(dot + 1);
    if (!std::all_of(digits.begin(), digits.end(), [](unsigned char c) { return std::isdigit(c); })) {
        return -1;
    }
    return std::stoll(digits);
}

std::vector<Finding> checkUpstreamSettings(SqlSession& upstream, const UpstreamExpectations& expectations) {
    std::vector<Finding> findings;
    const std::string server = upstream.server();
    auto logBin = upstream.globalVariable("log_bin");
    if (!isOn(logBin)) {
        findings.push_back({"upstream.log_bin",
                            Severity::Error,
                            server,
                            "the binary log is off (log_bin = " + logBin.value_or("?") + ")",
                            "the engine reads changes from the binary log: with it off there is nothing to replicate",
                            "log_bin = mariadb-bin\n# in the server's [mariadb] config section, then restart it",
                            FixTarget::ServerConfig,
                            {}});
    }
    for (const Requirement& requirement : kBinlogRequirements) {
        auto value = upstream.globalVariable(requirement.setting);
        if (!value || upper(*value) == requirement.expected) {
            continue;  // binlog_row_metadata exists from MariaDB 10.5 and MySQL 8.0 only
        }
        findings.push_back(
            sqlFinding(std::string("upstream.") + requirement.setting, Severity::Error, server,
                       std::string(requirement.setting) + " is " + *value + " but must be " + requirement.expected,
                       requirement.impact, FixTarget::Upstream,
                       {"SET GLOBAL " + std::string(requirement.setting) + " = '" + requirement.expected + "'"},
                       "and put '" + std::string(requirement.setting) + " = " + requirement.expected +
                           "' in the server's config; sessions already open keep the old value"));
    }
    auto serverId = upstream.globalVariable("server_id");
    if (serverId && (*serverId == "0" || serverId->empty())) {
        findings.push_back(
            sqlFinding("upstream.server_id", Severity::Error, server, "server_id is 0",
                       "a server without an id refuses replica connections, so the engine cannot read the binlog",
                       FixTarget::Upstream, {"SET GLOBAL server_id = 1"},
                       "any id no other server of the topology uses; put 'server_id = 1' in the server's config"));
    }
    if (expectations.enableGtid) {
        auto version = upstream.queryValue("SELECT VERSION()").value_or("");
        checkGtid(upstream, version.find("MariaDB") != std::string::npos, findings);
    }
    checkRetention(upstream, expectations.expectedLag, findings);
    return findings;
}

std::vector<Finding> checkUpstreamGrants(SqlSession& upstream, const std::set<std::string>& replicatedSchemas) {
    std::vector<Finding> findings;
    GrantFacts grants = readGrants(upstream);
    const bool mariadb = upstream.queryValue("SELECT VERSION()").value_or("").find("MariaDB") != std::string::npos;
    const std::string monitor = mariadb ? "BINLOG MONITOR" : "REPLICATION CLIENT";
    std::vector<std::string> missing;
    if (!grants.holdsGlobally("REPLICATION SLAVE")) {
        missing.push_back("REPLICATION SLAVE");
    }
    if (!grants.holdsGlobally("BINLOG MONITOR") && !grants.holdsGlobally("REPLICATION CLIENT") &&
        !grants.holdsGlobally("SUPER")) {
        missing.push_back(monitor);
    }
    if (!missing.empty()) {
        std::string list;
        for (const auto& p : missing) {
            list += (list.empty() ? "" : ", ") + p;
        }
        findings.push_back(sqlFinding(
            "upstream.grants", Severity::Error, upstream.server(), grants.grantee + " lacks " + list,
            "REPLICATION SLAVE lets the engine read the binlog; " + monitor +
                " lets it list the binlog files and the current position (SHOW BINARY LOGS, SHOW MASTER STATUS)",
            FixTarget::Upstream, {"GRANT " + list + " ON *.* TO " + grants.grantee}, "run as an administrator"));
    }
    for (const auto& schema : replicatedSchemas) {
        if (grants.holds("SELECT", schema)) {
            continue;
        }
        findings.push_back(sqlFinding(
            "upstream.select_grant", Severity::Warning, upstream.server() + " " + filter::TableName::quote(schema),
            grants.grantee + " has no SELECT on " + filter::TableName::quote(schema) + ".*",
            "the engine and this precheck read table structure from information_schema, which hides tables the "
            "user cannot SELECT; without it keys are unknown (grants on single tables or roles are not read here)",
            FixTarget::Upstream, {"GRANT SELECT ON " + filter::TableName::quote(schema) + ".* TO " + grants.grantee},
            "run as an administrator"));
    }
    return findings;
}

std::vector<Finding> checkStartPoint(SqlSession& upstream, const StartPoint& start) {
    std::vector<Finding> findings;
    if (start.binlogName.empty()) {
        return findings;  // starts at the upstream's current position
    }
    auto files = upstream.query("SHOW BINARY LOGS");
    if (files.empty()) {
        return findings;
    }
    const std::string oldest = files.front()[0].value_or("");
    const std::string newest = files.back()[0].value_or("");
    const long long number = binlogFileNumber(start.binlogName);
    const std::string where = "(" + start.binlogName + ", " + std::to_string(start.binlogPos) + ")";
    const std::string fix = "meta: {binlog-name: \"" + oldest +
                            "\", binlog-pos: 4}\n# events between the start point and there are lost: reload the "
                            "tables (and start with --remove-meta when the start came from the checkpoint)";
    if (number >= 0 && number < binlogFileNumber(oldest)) {
        findings.push_back({"upstream.start_purged",
                            Severity::Error,
                            upstream.server(),
                            "the start point " + where + " of " + start.origin +
                                " is in a purged binlog file; the "
                                "oldest file left is " +
                                oldest,
                            "the task cannot start: the events between the start point and " + oldest +
                                " are gone, so the downstream would silently miss them",
                            fix,
                            FixTarget::TaskFile,
                            {}});
        return findings;
    }
    if (number > binlogFileNumber(newest)) {
        findings.push_back(
            {"upstream.start_beyond",
             Severity::Error,
             upstream.server(),
             "the start point " + where + " of " + start.origin + " is beyond the newest binlog file " + newest,
             "the point names events the upstream has not written: another server's position, or a "
             "binlog that was reset (RESET MASTER)",
             "meta: {binlog-name: \"" + newest + "\", binlog-pos: 4}",
             FixTarget::TaskFile,
             {}});
        return findings;
    }
    for (const auto& row : files) {
        if (row.size() >= 2 && row[0] == start.binlogName && row[1] && start.binlogPos > std::stoull(*row[1])) {
            findings.push_back({"upstream.start_beyond",
                                Severity::Error,
                                upstream.server(),
                                "the start point " + where + " of " + start.origin + " is past the end of " +
                                    start.binlogName + " (" + *row[1] + " bytes)",
                                "the point names events the upstream has not written",
                                "meta: {binlog-name: \"" + start.binlogName + "\", binlog-pos: 4}",
                                FixTarget::TaskFile,
                                {}});
        }
    }
    return findings;
}

}  // namespace syncscope::precheck
