#include "engine/control/control_request.h"

#include <nlohmann/json.hpp>

#include <limits>

#include "engine/binlog/binlog_position.h"
#include "engine/task/resume_point_writer.h"

namespace syncscope::control {

namespace {

bool isBlank(const std::string& text) {
    return text.find_first_not_of(" \t\r\n") == std::string::npos;
}

}  // namespace

ResumeFromRequest parseResumeFromBody(const std::string& body) {
    nlohmann::json json = nlohmann::json::parse(body, nullptr, false);
    if (json.is_discarded()) {
        return {std::nullopt,
                "the body is not JSON; send {\"binlog_name\": ..., \"binlog_pos\": ...} or {\"gtid\": ...}"};
    }
    if (!json.is_object()) {
        return {std::nullopt, "the body must be a JSON object with binlog_name and binlog_pos, or gtid"};
    }
    bool saveSkippedRows = true;
    for (const auto& [key, value] : json.items()) {
        if (key == "save_sql") {
            if (!value.is_boolean()) {
                return {std::nullopt, "save_sql must be true or false, got " + value.dump()};
            }
            saveSkippedRows = value.get<bool>();
        } else if (key != "binlog_name" && key != "binlog_pos" && key != "gtid") {
            return {std::nullopt, "unknown key '" + key + "'; expected binlog_name, binlog_pos, gtid or save_sql"};
        }
    }
    task::ResumeTarget target;
    bool hasName = json.contains("binlog_name");
    bool hasPos = json.contains("binlog_pos");
    if (hasName != hasPos) {
        return {std::nullopt, "binlog_name and binlog_pos go together"};
    }
    if (hasName) {
        const auto& name = json["binlog_name"];
        const auto& pos = json["binlog_pos"];
        if (!name.is_string() || !binlog::BinlogPosition::isBinlogFileName(name.get<std::string>())) {
            return {std::nullopt,
                    "binlog_name must be a binlog file name such as \"mysql-bin.000003\", got " + name.dump()};
        }
        if (!pos.is_number_unsigned()) {
            return {std::nullopt, "binlog_pos must be a non-negative integer, got " + pos.dump()};
        }
        target.file = name.get<std::string>();
        target.pos = pos.get<uint64_t>();
    }
    if (json.contains("gtid")) {
        const auto& gtid = json["gtid"];
        if (!gtid.is_string() || isBlank(gtid.get<std::string>())) {
            return {std::nullopt, "gtid must be a non-empty GTID set text, got " + gtid.dump()};
        }
        target.gtid = gtid.get<std::string>();
    }
    std::string problem = task::validateResumeTarget(target);
    if (!problem.empty()) {
        return {std::nullopt, problem};
    }
    return {target, {}, saveSkippedRows};
}

SkipBody parseSkipBody(const std::string& body) {
    SkipBody skip;
    if (isBlank(body)) {
        return skip;
    }
    nlohmann::json json = nlohmann::json::parse(body, nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
        skip.problem = "the body must be empty, {} or {\"save_sql\": false}";
        return skip;
    }
    for (const auto& [key, value] : json.items()) {
        if (key != "save_sql") {
            skip.problem = "unknown key '" + key + "'; expected save_sql";
            return skip;
        }
        if (!value.is_boolean()) {
            skip.problem = "save_sql must be true or false, got " + value.dump();
            return skip;
        }
        skip.saveSkippedRows = value.get<bool>();
    }
    return skip;
}

ResumeFromRequest parseResumeFromQuery(const std::string& binlogName, const std::string& binlogPos,
                                       const std::string& gtid, bool hasName, bool hasPos, bool hasGtid) {
    nlohmann::json json = nlohmann::json::object();
    if (hasName) {
        json["binlog_name"] = binlogName;
    }
    if (hasPos) {
        if (binlogPos.empty() || binlogPos.find_first_not_of("0123456789") != std::string::npos ||
            binlogPos.size() > std::numeric_limits<uint64_t>::digits10) {
            return {std::nullopt, "binlog_pos must be a non-negative integer, got '" + binlogPos + "'"};
        }
        json["binlog_pos"] = std::stoull(binlogPos);
    }
    if (hasGtid) {
        json["gtid"] = gtid;
    }
    if (json.empty()) {
        return {std::nullopt, "give the target as ?binlog_name=FILE&binlog_pos=POS"};
    }
    return parseResumeFromBody(json.dump());
}

std::string problemWithEmptyBody(const std::string& body) {
    if (isBlank(body)) {
        return {};
    }
    nlohmann::json json = nlohmann::json::parse(body, nullptr, false);
    if (json.is_discarded() || !json.is_object() || !json.empty()) {
        return "this command takes no arguments: send no body or {}";
    }
    return {};
}

}  // namespace syncscope::control

namespace syncscope::control {

UntilRequest parseUntilBody(const std::string& body) {
    nlohmann::json json = nlohmann::json::parse(body, nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
        return {std::nullopt, "the body must be a JSON object {\"point\": \"FILE:POS | GTID | YYYY-MM-DD HH:MM:SS\"}"};
    }
    for (const auto& [key, value] : json.items()) {
        if (key != "point") {
            return {std::nullopt, "unknown key '" + key + "'; expected point"};
        }
    }
    if (!json.contains("point") || !json["point"].is_string()) {
        return {std::nullopt, "point must be a string (\"\" clears the stop point)"};
    }
    return {json["point"].get<std::string>(), {}};
}

}  // namespace syncscope::control
