// One precheck finding: what is wrong, why it matters for this task, and the exact statement or
// setting that fixes it. A finding whose fix is SQL names the server to run it on.
#pragma once

#include <string>
#include <vector>

namespace syncscope::precheck {

enum class Severity { Note, Warning, Error };

// Where the fix goes: SQL on one of the two servers, or a line in a config file.
enum class FixTarget { Upstream, Downstream, TaskFile, SourceFile, ServerConfig };

const char* severityName(Severity severity);  // "note", "warning", "error"
const char* fixTargetName(FixTarget target);  // "upstream", "downstream", "task-file", ...
std::string fixTargetText(FixTarget target);  // "run on the upstream", "in the task file", ...

struct Finding {
    std::string check;  // stable id, e.g. "upstream.binlog_format", "table.no_key"
    Severity severity = Severity::Warning;
    std::string subject;  // the server or `schema`.`table` it is about
    std::string problem;  // what is wrong
    std::string impact;   // why it matters for this task
    std::string fix;      // the exact statement or setting, as a DBA would paste it
    FixTarget fixTarget = FixTarget::TaskFile;
    // The statements of `fix` one by one when the fix is SQL (fixTarget Upstream or Downstream); empty
    // when it is a config change or cannot be run as it stands.
    std::vector<std::string> fixStatements;

    bool hasRunnableFix() const {
        return !fixStatements.empty() && (fixTarget == FixTarget::Upstream || fixTarget == FixTarget::Downstream);
    }
};

// Findings for SQL fixes: `fix` is the statements joined, each ending with ';'.
Finding sqlFinding(std::string check, Severity severity, std::string subject, std::string problem, std::string impact,
                   FixTarget server, std::vector<std::string> statements, const std::string& afterwards = {});

}  // namespace syncscope::precheck
