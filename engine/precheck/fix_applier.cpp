#include "engine/precheck/fix_applier.h"

#include "engine/common/error.h"
#include "engine/precheck/sql_session.h"

namespace syncscope::precheck {

void applyFix(const Finding& finding, const ServerSettings& server, task::AuditLog& audit, const std::string& task,
              const std::string& sourceId) {
    if (!finding.hasRunnableFix()) {
        throw Error("the fix of " + finding.check + " (" + finding.subject + ") is a config change (" +
                    fixTargetText(finding.fixTarget) + "), not SQL: edit it by hand");
    }
    const bool upstream = finding.fixTarget == FixTarget::Upstream;
    task::AuditEntry entry;
    entry.action = "precheck-fix";
    entry.task = task;
    entry.sourceId = sourceId;
    entry.details = {{"check", finding.check},
                     {"subject", finding.subject},
                     {"server", std::string(upstream ? "upstream " : "downstream ") + server.describe()},
                     {"statements", finding.fixStatements}};
    audit.append(entry);
    auto session = upstream ? connectUpstreamSession(server) : connectDownstreamSession(server);
    for (const auto& statement : finding.fixStatements) {
        try {
            session->execute(statement);
        } catch (const std::exception& e) {
            task::AuditEntry failed = entry;
            failed.action = "precheck-fix-failed";
            failed.details["failed_statement"] = statement;
            failed.details["error"] = e.what();
            audit.append(failed);
            throw Error("fix of " + finding.check + " failed on " + session->server() + ": " + e.what());
        }
    }
}

}  // namespace syncscope::precheck
