// Reads the bodies of the control API's POST requests. A bad body is answered 400 with what is wrong;
// it never reaches the task.
#pragma once

#include <optional>
#include <string>

#include "engine/task/task_control.h"

namespace syncscope::control {

struct ResumeFromRequest {
    std::optional<task::ResumeTarget> target;
    std::string problem;          // why the body is refused; empty when target is set
    bool saveSkippedRows = true;  // going forward, save the skipped rows as replayable SQL first
};

// {"binlog_name": "mysql-bin.000003", "binlog_pos": 1234} or {"gtid": "0-1-5"} (or both: a location
// with its GTIDs), and optionally "save_sql": false. Unknown keys, wrong types and unusable targets are
// problems.
ResumeFromRequest parseResumeFromBody(const std::string& body);

struct UntilRequest {
    std::optional<std::string> point;  // "" clears the stop point
    std::string problem;
};

// {"point": "mariadb-bin.000003:1234"} (or a GTID, or "YYYY-MM-DD HH:MM:SS"; "" clears it).
UntilRequest parseUntilBody(const std::string& body);

struct SkipBody {
    bool saveSkippedRows = true;  // preview the skip and save its replay SQL first (when the API can)
    std::string problem;
};

// No body, {} or {"save_sql": false} (skip without saving the skipped rows' replay SQL).
SkipBody parseSkipBody(const std::string& body);

// GET /api/v1/preview/resume-from?binlog_name=...&binlog_pos=... (or gtid=...): the same checks as the
// POST body. `binlogPos` is the text as given (empty when absent).
ResumeFromRequest parseResumeFromQuery(const std::string& binlogName, const std::string& binlogPos,
                                       const std::string& gtid, bool hasName, bool hasPos, bool hasGtid);

// The commands without arguments take no body, or an empty JSON object; empty when that holds.
std::string problemWithEmptyBody(const std::string& body);

}  // namespace syncscope::control
