#include "app/cli/verify_report_printer.h"

#include <fmt/format.h>

#include "engine/verify/difference_json.h"

namespace syncscope::cli {
namespace {

using verify::keyJson;
using verify::rowDifferenceJson;
using verify::rowJson;
using verify::valueText;

std::string keyText(const verify::TableVerifyResult& table, const verify::RowValues& key) {
    std::string text;
    for (size_t i = 0; i < table.keyColumns.size() && i < key.size(); ++i) {
        text += (text.empty() ? "" : ", ") + table.columns[table.keyColumns[i]] + "=" + valueText(key[i]);
    }
    return text;
}

std::string rowText(const verify::TableVerifyResult& table, const verify::RowValues& row) {
    std::string text;
    for (size_t i = 0; i < table.columns.size() && i < row.size(); ++i) {
        text += (text.empty() ? "" : ", ") + table.columns[i] + "=" + valueText(row[i]);
    }
    return text;
}

nlohmann::json locationJson(const binlog::Location& location) {
    if (location.isEmpty()) {
        return nullptr;
    }
    return {{"binlog_name", location.position().file()},
            {"binlog_pos", location.position().offset()},
            {"binlog_gtid", location.gtidText()},
            {"text", location.toString()}};
}

void printDifference(const verify::TableVerifyResult& table, const verify::RowDifference& difference,
                     std::ostream& out) {
    out << "    " << verify::differenceKindName(difference.kind);
    if (table.keyless) {
        out << " x" << difference.count << ": "
            << rowText(table, difference.kind == verify::DifferenceKind::Extra ? difference.downstreamRow
                                                                               : difference.upstreamRow);
    } else {
        out << " (" << keyText(table, difference.key) << ")";
        if (difference.kind == verify::DifferenceKind::Different) {
            out << " columns:";
            for (const auto& column : difference.differingColumns) {
                auto position = std::find(table.columns.begin(), table.columns.end(), column) - table.columns.begin();
                out << " " << column << " upstream " << valueText(difference.upstreamRow[static_cast<size_t>(position)])
                    << " downstream " << valueText(difference.downstreamRow[static_cast<size_t>(position)]) << ";";
            }
        }
    }
    if (!difference.settled) {
        out << "  (UNSETTLED: the task had not applied up to the locked upstream point in time)";
    }
    out << '\n';
}

}  // namespace

nlohmann::json verifyReportJson(const verify::VerifyReport& report) {
    nlohmann::json tables = nlohmann::json::array();
    for (const auto& table : report.tables) {
        nlohmann::json differences = nlohmann::json::array();
        for (const auto& difference : table.differences) {
            differences.push_back(rowDifferenceJson(table, difference));
        }
        nlohmann::json item{{"upstream", table.upstream.text()},
                            {"downstream", table.downstream.text()},
                            {"outcome", verify::tableOutcomeName(table.outcome)},
                            {"problem", table.problem},
                            {"notes", table.notes},
                            {"keyless", table.keyless},
                            {"verified_at", locationJson(table.verifiedAt)},
                            {"chunks_done", table.chunksDone},
                            {"chunks_total", table.chunksTotal},
                            {"chunks_rechecked", table.chunksRechecked},
                            {"rows_in_flight", table.rowsInFlight},
                            {"rows_compared", table.rowsCompared},
                            {"seconds", table.seconds},
                            {"differences", differences}};
        if (table.repair) {
            const auto& repair = *table.repair;
            item["repair"] = {{"sql", repair.sql},
                              {"statements", repair.statements},
                              {"applied", repair.applied},
                              {"skipped_because", repair.skippedBecause},
                              {"error", repair.error},
                              {"rechecked", repair.rechecked},
                              {"still_different", repair.stillDifferent}};
        }
        tables.push_back(std::move(item));
    }
    return {{"tables", tables},
            {"differences", report.differenceCount()},
            {"failed_tables", report.failedTables()},
            {"equal", report.differenceCount() == 0 && report.failedTables() == 0 && !report.cancelled},
            {"cancelled", report.cancelled},
            {"row_hash", report.hash},
            {"in_flight_rows_told_apart_by", report.taskProgress},
            {"seconds", report.seconds}};
}

void printVerifyReport(const verify::VerifyReport& report, std::ostream& out) {
    for (const auto& table : report.tables) {
        out << table.upstream.text();
        if (!(table.downstream == table.upstream)) {
            out << " -> " << table.downstream.text();
        }
        out << ": " << verify::tableOutcomeName(table.outcome);
        if (table.outcome == verify::TableOutcome::Failed) {
            out << ": " << table.problem << '\n';
            continue;
        }
        out << " (" << table.rowsCompared << " rows, " << table.chunksDone << " chunks"
            << (table.keyless ? ", no key: compared by counts of equal rows" : "") << ", verified at "
            << table.verifiedAt.toString() << ")\n";
        for (const auto& note : table.notes) {
            out << "    note: " << note << '\n';
        }
        for (const auto& difference : table.differences) {
            printDifference(table, difference, out);
        }
        if (table.repair) {
            const auto& repair = *table.repair;
            out << "  repair (" << repair.statements << " statements):\n" << repair.sql;
            if (!repair.error.empty()) {
                out << "  repair FAILED: " << repair.error << '\n';
            } else if (repair.applied) {
                out << "  repair applied; re-verified: "
                    << (repair.stillDifferent == 0 ? std::string("equal")
                                                   : std::to_string(repair.stillDifferent) + " rows still differ")
                    << '\n';
            }
            if (!repair.skippedBecause.empty()) {
                out << "  repair not applied: " << repair.skippedBecause << '\n';
            }
        }
    }
    out << report.tables.size() << " tables, " << report.differenceCount() << " differences, " << report.failedTables()
        << " failed" << (report.cancelled ? ", cancelled" : "") << " in " << fmt::format("{:.1f}", report.seconds)
        << " s (row hash " << report.hash << "; in-flight rows told apart by " << report.taskProgress << ")\n";
}

}  // namespace syncscope::cli
