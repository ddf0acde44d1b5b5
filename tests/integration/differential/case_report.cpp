#include "tests/integration/differential/case_report.h"

#include <ctime>
#include <set>

namespace syncscope::differential {

std::string caseSummary(const CaseSpec& spec) {
    const EngineSettings& e = spec.engine;
    int faults = 0;
    for (const auto& step : spec.steps) {
        faults += step.fault != FaultKind::None ? 1 : 0;
    }
    return std::string(e.gtidMode ? "gtid" : "position") + " mode, worker-count " + std::to_string(e.workerCount) +
           ", batch " + std::to_string(e.batch) + ", multiple-rows " + (e.multipleRows ? "on" : "off") +
           ", safe-mode " + (e.safeMode ? "on" : "off") + "; " + std::to_string(spec.tables.size()) + " tables, " +
           std::to_string(spec.steps.size() - static_cast<size_t>(faults)) + " statements steps, " +
           std::to_string(faults) + " faults";
}

std::string workloadText(const CaseSpec& spec, const std::vector<int>& kept) {
    std::set<int> keep(kept.begin(), kept.end());
    std::string text = "-- schema (created on all three servers outside the binlog)\n";
    for (const auto& table : spec.tables) {
        text += table.createSql() + ";\n";
    }
    for (const auto& step : spec.steps) {
        if (!keep.empty() && keep.count(step.number) == 0) {
            continue;
        }
        text += "-- step " + std::to_string(step.number) + ": " + step.label + "\n";
        for (const auto& statement : step.statements) {
            text += (statement.session == kSideSession   ? "/* side session */ "
                     : statement.session == kToolSession ? "/* the tool's session (NO_AUTO_VALUE_ON_ZERO) */ "
                                                         : "") +
                    statement.sql + ";\n";
        }
    }
    return text;
}

std::string replayCommand(const CaseSpec& spec, const std::vector<int>& kept) {
    std::string command =
        "scripts/fuzz-replication --seed " + std::to_string(spec.seed) + " --features " + featureList(spec.features);
    if (!kept.empty() && kept.size() != spec.steps.size()) {
        command += " --keep " + stepList(kept);
    }
    return command;
}

std::string divergenceReport(const CaseSpec& spec, const std::vector<int>& kept, const CaseOutcome& outcome,
                             int shrinkRuns, const std::string& commit) {
    std::time_t now = std::time(nullptr);
    char when[32];
    std::strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
    std::string kinds;
    for (const auto& d : outcome.divergences) {
        if (kinds.find(d.kind) == std::string::npos) {
            kinds += (kinds.empty() ? "" : ", ") + d.kind;
        }
    }
    std::string text = "\n### seed " + std::to_string(spec.seed) + ": " + kinds + "\n\n";
    text += "- found " + std::string(when) + " on " + commit + "; " + caseSummary(spec) + "\n";
    text += "- smallest workload: " + std::to_string(kept.empty() ? spec.steps.size() : kept.size()) + " of " +
            std::to_string(spec.steps.size()) + " steps (" + std::to_string(shrinkRuns) + " shrink runs)\n";
    text += "- replay: `" + replayCommand(spec, kept) + "`\n";
    text += "- what differed:\n";
    for (const auto& d : outcome.divergences) {
        text += "  - **" + d.kind + "**: " + d.detail + "\n";
    }
    text += "\n```sql\n" + workloadText(spec, kept) + "```\n";
    return text;
}

}  // namespace syncscope::differential
