#include "engine/precheck/finding.h"

namespace syncscope::precheck {

const char* severityName(Severity severity) {
    switch (severity) {
        case Severity::Note:
            return "note";
        case Severity::Warning:
            return "warning";
        case Severity::Error:
            return "error";
    }
    return "?";
}

const char* fixTargetName(FixTarget target) {
    switch (target) {
        case FixTarget::Upstream:
            return "upstream";
        case FixTarget::Downstream:
            return "downstream";
        case FixTarget::TaskFile:
            return "task-file";
        case FixTarget::SourceFile:
            return "source-file";
        case FixTarget::ServerConfig:
            return "server-config";
    }
    return "?";
}

std::string fixTargetText(FixTarget target) {
    switch (target) {
        case FixTarget::Upstream:
            return "run on the upstream";
        case FixTarget::Downstream:
            return "run on the downstream";
        case FixTarget::TaskFile:
            return "in the task file";
        case FixTarget::SourceFile:
            return "in the source file";
        case FixTarget::ServerConfig:
            return "in the server's config";
    }
    return "?";
}

Finding sqlFinding(std::string check, Severity severity, std::string subject, std::string problem, std::string impact,
                   FixTarget server, std::vector<std::string> statements, const std::string& afterwards) {
    Finding finding{
        std::move(check),     severity, std::move(subject), std::move(problem), std::move(impact), {}, server,
        std::move(statements)};
    for (const auto& statement : finding.fixStatements) {
        finding.fix += (finding.fix.empty() ? "" : "\n") + statement + ";";
    }
    if (!afterwards.empty()) {
        finding.fix += "\n-- " + afterwards;
    }
    return finding;
}

}  // namespace syncscope::precheck
