#include "app/cli/window_verify.h"

#include <filesystem>

#include "engine/task/audit_log.h"
#include "engine/verify/repair_applier.h"
#include "engine/verify/skip_window_verifier.h"

namespace syncscope::cli {
namespace {

nlohmann::json valuesJson(const std::vector<std::string>& names, const std::vector<size_t>& positions,
                          const std::vector<apply::SqlValue>& values) {
    nlohmann::json out = nlohmann::json::object();
    for (size_t i = 0; i < values.size(); ++i) {
        const std::string& name = positions.empty() ? names.at(i) : names.at(positions.at(i));
        out[name] = values[i].isNull() ? nlohmann::json(nullptr) : nlohmann::json(values[i].display());
    }
    return out;
}

std::string keyText(const verify::SkipWindowReport& report, const verify::WindowRow& row) {
    std::string text;
    for (size_t i = 0; i < row.key.size(); ++i) {
        text += (text.empty() ? "" : ", ") + report.columns[report.keyColumns[i]] + "=" + row.key[i].display();
    }
    return text;
}

nlohmann::json reportJson(const verify::SkipWindowReport& report) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : report.rows) {
        rows.push_back(
            {{"state", verify::windowRowStateName(row.state)},
             {"key", valuesJson(report.columns, report.keyColumns, row.key)},
             {"final_image", row.image.empty() ? nlohmann::json(nullptr) : valuesJson(report.columns, {}, row.image)},
             {"last_change", row.lastChange},
             {"differing_columns", row.differingColumns}});
    }
    return {{"table", report.table.text()},
            {"downstream_table", report.downstreamTable.text()},
            {"from", report.from.toString()},
            {"to", report.to.toString()},
            {"events_read", report.eventsRead},
            {"row_changes", report.rowChanges},
            {"rows", rows},
            {"wrong_rows", report.wrongRows()}};
}

void printReport(const verify::SkipWindowReport& report, std::ostream& out) {
    out << "  window of " << report.table.text() << " (" << report.from.toString() << " .. " << report.to.toString()
        << "]: " << report.rowChanges << " row changes in " << report.eventsRead << " events, " << report.rows.size()
        << " rows, " << report.wrongRows() << " wrong\n";
    for (const auto& row : report.rows) {
        if (row.state == verify::WindowRowState::Equal) {
            continue;
        }
        out << "    " << verify::windowRowStateName(row.state) << " (" << keyText(report, row) << "), last changed at "
            << row.lastChange;
        for (const auto& column : row.differingColumns) {
            out << (&column == &row.differingColumns.front() ? "; columns: " : ", ") << column;
        }
        out << '\n';
    }
}

}  // namespace

WindowVerifyOutcome verifySkipWindows(const inspect::InspectionReport& report, const WindowVerifyOptions& options,
                                      std::ostream* out) {
    WindowVerifyOutcome outcome;
    for (const auto& table : report.tables) {
        for (const auto& source : table.sources) {
            for (const auto& point : source.tables) {
                for (const auto& anomaly : point.anomalies) {
                    if (anomaly.kind != inspect::AnomalyKind::TableAheadOfGlobal || !anomaly.skipWindow) {
                        continue;
                    }
                    ++outcome.windows;
                    verify::SkipWindowRequest request;
                    request.upstream = options.upstream;
                    request.downstream = options.target;
                    request.table = {point.row.schema, point.row.table};
                    request.from = anomaly.skipWindow->from;
                    request.to = anomaly.skipWindow->to;
                    nlohmann::json item{{"task", table.taskName}, {"source_id", source.sourceId}};
                    try {
                        verify::SkipWindowReport window = verify::SkipWindowVerifier().verify(request);
                        outcome.wrongRows += window.wrongRows();
                        item["verification"] = reportJson(window);
                        if (out) {
                            printReport(window, *out);
                        }
                        if (options.repair && window.wrongRows() > 0) {
                            verify::RepairPlan plan(window.repairChanges());
                            std::filesystem::create_directories(options.logDir);
                            task::AuditLog audit(options.logDir + "/" + table.taskName + "-audit.jsonl");
                            task::AuditEntry entry;
                            entry.action = "verify-window-repair";
                            entry.task = table.taskName;
                            entry.sourceId = source.sourceId;
                            entry.positionBefore = window.from.toString();
                            entry.positionAfter = window.to.toString();
                            entry.details = {{"sql", plan.sqlText()}, {"window", item["verification"]}};
                            audit.append(entry);
                            verify::RepairApplier(options.target, {}).apply(plan);
                            verify::SkipWindowReport again = verify::SkipWindowVerifier().verify(request);
                            item["repair"] = {{"sql", plan.sqlText()}, {"still_wrong", again.wrongRows()}};
                            if (out) {
                                *out << "    repaired:\n"
                                     << plan.sqlText() << "    verified again: " << again.wrongRows() << " wrong\n";
                            }
                        }
                    } catch (const Error& e) {
                        ++outcome.failed;
                        item["error"] = e.what();
                        if (out) {
                            *out << "  window of " << request.table.text() << ": cannot verify: " << e.what() << '\n';
                        }
                    }
                    outcome.json.push_back(std::move(item));
                }
            }
        }
    }
    return outcome;
}

int windowVerifyExitCode(const WindowVerifyOutcome& outcome) {
    constexpr int kExitRight = 0;
    constexpr int kExitWrongRows = 1;
    constexpr int kExitVerifyError = 2;
    if (outcome.failed > 0) {
        return kExitVerifyError;
    }
    return outcome.wrongRows > 0 ? kExitWrongRows : kExitRight;
}

}  // namespace syncscope::cli
