#include "app/cli/checkpoints_of_task.h"

#include <nlohmann/json.hpp>

#include <iostream>
#include <set>

#include "app/cli/checkpoint_printer.h"
#include "app/cli/cli_commands.h"
#include "app/cli/source_checkpoint.h"
#include "app/cli/window_verify.h"

namespace syncscope::cli {

namespace {

constexpr int kJsonIndent = 2;

// Source ids with rows in the task's table that none of the given files is: a source removed from the
// task, or a file not given.
std::vector<std::string> otherSourceIds(const std::vector<SourceCheckpoint>& reports) {
    std::set<std::string> given;
    for (const SourceCheckpoint& report : reports) {
        given.insert(report.setup.sourceId);
    }
    std::set<std::string> others;
    const std::string table = reports.front().setup.taskName + "_syncer_checkpoint";
    for (const auto& inspected : reports.front().inspection.tables) {
        for (const auto& source : inspected.sources) {
            if (inspected.tableName == table && !given.count(source.sourceId)) {
                others.insert(source.sourceId);
            }
        }
    }
    return {others.begin(), others.end()};
}

size_t totalAnomalies(const std::vector<SourceCheckpoint>& reports) {
    size_t total = 0;
    for (const SourceCheckpoint& report : reports) {
        total += report.anomalyCount();
    }
    return total;
}

// The report of one source only, for the window verifier (which verifies every window of a report).
inspect::InspectionReport sourceOnly(const SourceCheckpoint& report) {
    inspect::InspectionReport only;
    only.target = report.inspection.target;
    only.upstream = report.inspection.upstream;
    inspect::InspectedCheckpointTable table;
    table.metaSchema = report.setup.metaSchema;
    table.tableName = report.setup.taskName + "_syncer_checkpoint";
    table.taskName = report.setup.taskName;
    table.sources.push_back(*report.source);
    only.tables.push_back(std::move(table));
    return only;
}

void printSection(const SourceCheckpoint& report, std::ostream& out) {
    out << "\nsource " << report.setup.sourceId << " (" << report.sourceFile << ")\n  ";
    if (report.inspection.upstream) {
        printUpstream(*report.inspection.upstream, out);
    } else {
        out << "upstream unreadable: " << report.upstreamError << '\n';
    }
    if (!report.source) {
        out << "  no persisted checkpoint for this source: a start begins at the task's meta, else at the upstream's "
               "current position\n";
        return;
    }
    printSourcePoints(*report.source, out);
    out << "  " << report.anomalyCount() << (report.anomalyCount() == 1 ? " anomaly" : " anomalies") << '\n';
}

nlohmann::json sectionJson(const SourceCheckpoint& report) {
    nlohmann::json section = report.source ? sourceJson(*report.source) : nlohmann::json::object();
    section["source_id"] = report.setup.sourceId;
    section["source_file"] = report.sourceFile;
    section["has_checkpoint"] = report.source.has_value();
    section["upstream"] = report.inspection.upstream ? upstreamJson(*report.inspection.upstream) : nullptr;
    section["upstream_error"] = report.upstreamError;
    section["anomaly_count"] = report.anomalyCount();
    return section;
}

}  // namespace

int runTaskCheckpoints(const TaskCheckpointsOptions& options) {
    try {
        TaskSources sources = loadTaskSources(options.taskFile, options.sourceFiles);
        std::vector<SourceCheckpoint> reports;
        for (size_t i = 0; i < sources.setups.size(); ++i) {
            reports.push_back(readSourceCheckpoint(sources.setups[i], sources.sourceFiles[i]));
        }
        const SourceCheckpoint& first = reports.front();
        const std::vector<std::string> others = otherSourceIds(reports);
        const size_t anomalies = totalAnomalies(reports);
        nlohmann::json json{
            {"task", first.setup.taskName},
            {"checkpoint_table", first.setup.metaSchema + "." + first.setup.taskName + "_syncer_checkpoint"},
            {"target", first.inspection.target},
            {"problem", first.checkpointProblem},
            {"anomalies", anomalies},
            {"other_source_ids", others},
            {"sources", nlohmann::json::array()}};
        if (!options.json) {
            std::cout << "task " << first.setup.taskName << ": checkpoint table " << first.checkpointTable() << " on "
                      << first.inspection.target << ", " << reports.size() << " source(s), " << anomalies
                      << (anomalies == 1 ? " anomaly" : " anomalies") << '\n';
            if (!first.checkpointProblem.empty()) {
                std::cout << "  ! " << first.checkpointProblem << '\n';
            }
            for (const std::string& other : others) {
                std::cout << "  rows of source id '" << other << "', which none of the --source files is\n";
            }
        }
        WindowVerifyOutcome whole;
        for (const SourceCheckpoint& report : reports) {
            nlohmann::json section = sectionJson(report);
            if (!options.json) {
                printSection(report, std::cout);
            }
            if (options.verify && report.source) {
                if (!report.inspection.upstream) {
                    ++whole.failed;  // its windows cannot be decoded
                    section["window_verifications"] = nlohmann::json::array();
                } else {
                    WindowVerifyOptions verifyOptions{report.setup.downstream, report.setup.upstream, options.repair,
                                                      options.logDir};
                    WindowVerifyOutcome outcome =
                        verifySkipWindows(sourceOnly(report), verifyOptions, options.json ? nullptr : &std::cout);
                    whole.windows += outcome.windows;
                    whole.wrongRows += outcome.wrongRows;
                    whole.failed += outcome.failed;
                    section["window_verifications"] = outcome.json;
                }
            }
            json["sources"].push_back(std::move(section));
        }
        if (options.json) {
            std::cout << json.dump(kJsonIndent, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
        } else if (options.verify) {
            std::cout << '\n'
                      << whole.windows << " windows, " << whole.wrongRows << " wrong rows, " << whole.failed
                      << " not verifiable\n";
        }
        bool upstreamUnreadable = false;
        for (const SourceCheckpoint& report : reports) {
            if (!report.upstreamError.empty()) {
                std::cerr << "syncscope-cli checkpoints: upstream of source " << report.setup.sourceId << ": "
                          << report.upstreamError << '\n';
                upstreamUnreadable = true;
            }
        }
        if (options.verify) {
            return windowVerifyExitCode(whole);
        }
        return upstreamUnreadable ? kExitFailure : kExitOk;
    } catch (const std::exception& e) {
        std::cerr << "syncscope-cli checkpoints: " << e.what() << '\n';
        return kExitFailure;
    }
}

}  // namespace syncscope::cli
