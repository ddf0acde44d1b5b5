#include "engine/precheck/precheck_report.h"

#include <sstream>

namespace syncscope::precheck {

namespace {

// Continuation lines of a field start under its text.
std::string indented(const std::string& text, const std::string& indent) {
    std::string out;
    for (char c : text) {
        out += c;
        if (c == '\n') {
            out += indent;
        }
    }
    return out;
}

std::string plural(size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

size_t PrecheckReport::count(Severity severity) const {
    size_t n = 0;
    for (const auto& finding : findings) {
        n += finding.severity == severity ? 1 : 0;
    }
    return n;
}

int PrecheckReport::exitCode() const {
    if (count(Severity::Error) > 0) {
        return kExitErrors;
    }
    return count(Severity::Warning) > 0 ? kExitWarnings : kExitOk;
}

std::vector<const Finding*> PrecheckReport::withCheck(const std::string& check) const {
    std::vector<const Finding*> matching;
    for (const auto& finding : findings) {
        if (finding.check == check) {
            matching.push_back(&finding);
        }
    }
    return matching;
}

nlohmann::json toJson(const PrecheckReport& report) {
    nlohmann::json findings = nlohmann::json::array();
    for (const auto& f : report.findings) {
        findings.push_back({{"check", f.check},
                            {"severity", severityName(f.severity)},
                            {"subject", f.subject},
                            {"problem", f.problem},
                            {"impact", f.impact},
                            {"fix", f.fix},
                            {"fix_target", fixTargetName(f.fixTarget)},
                            {"fix_statements", f.fixStatements}});
    }
    return {{"task", report.task},
            {"source_id", report.sourceId},
            {"upstream", report.upstream},
            {"downstream", report.downstream},
            {"tables_checked", report.tablesChecked},
            {"areas", report.areas},
            {"errors", report.count(Severity::Error)},
            {"warnings", report.count(Severity::Warning)},
            {"notes", report.count(Severity::Note)},
            {"exit_code", report.exitCode()},
            {"findings", findings}};
}

std::string toText(const PrecheckReport& report) {
    std::ostringstream out;
    out << "precheck of task " << report.task << " (source " << report.sourceId << "): upstream " << report.upstream
        << ", downstream " << report.downstream << ", " << plural(report.tablesChecked, "table", "tables")
        << " replicated\n";
    const std::string indent(10, ' ');
    for (const auto& f : report.findings) {
        std::string label = severityName(f.severity);
        for (auto& c : label) {
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        }
        out << "\n"
            << label << std::string(indent.size() - label.size(), ' ') << f.check << "  " << f.subject << "\n"
            << "  what    " << indented(f.problem, indent) << "\n"
            << "  why     " << indented(f.impact, indent) << "\n"
            << "  fix     (" << fixTargetText(f.fixTarget) << ")\n"
            << indent << indented(f.fix, indent) << "\n";
    }
    out << "\nchecked: ";
    for (size_t i = 0; i < report.areas.size(); ++i) {
        out << (i ? ", " : "") << report.areas[i];
    }
    out << "\n"
        << plural(report.count(Severity::Error), "error", "errors") << ", "
        << plural(report.count(Severity::Warning), "warning", "warnings") << ", "
        << plural(report.count(Severity::Note), "note", "notes") << "\n";
    return out.str();
}

}  // namespace syncscope::precheck
