#include "app/cli/verify_report_printer.h"

namespace syncscope::cli {
namespace {

// Text as it is when it is valid UTF-8; anything else as 0x... hex, so that JSON stays valid.
bool isUtf8(const std::string& text) {
    size_t i = 0;
    while (i < text.size()) {
        auto c = static_cast<unsigned char>(text[i]);
        size_t length = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
        if (length == 0 || i + length > text.size()) {
            return false;
        }
        for (size_t k = 1; k < length; ++k) {
            if ((static_cast<unsigned char>(text[i + k]) >> 6) != 0x2) {
                return false;
            }
        }
        i += length;
    }
    return true;
}

std::string valueText(const std::optional<std::string>& value) {
    static const char* const kHex = "0123456789ABCDEF";
    if (!value) {
        return "NULL";
    }
    if (isUtf8(*value)) {
        return *value;
    }
    std::string hex = "0x";
    for (unsigned char c : *value) {
        hex += kHex[c >> 4];
        hex += kHex[c & 0xf];
    }
    return hex;
}

nlohmann::json valueJson(const std::optional<std::string>& value) {
    return value ? nlohmann::json(valueText(value)) : nlohmann::json(nullptr);
}

nlohmann::json rowJson(const std::vector<std::string>& columns, const verify::RowValues& row) {
    if (row.empty()) {
        return nullptr;
    }
    nlohmann::json out = nlohmann::json::object();
    for (size_t i = 0; i < columns.size() && i < row.size(); ++i) {
        out[columns[i]] = valueJson(row[i]);
    }
    return out;
}

nlohmann::json keyJson(const verify::TableVerifyResult& table, const verify::RowValues& key) {
    nlohmann::json out = nlohmann::json::object();
    for (size_t i = 0; i < table.keyColumns.size() && i < key.size(); ++i) {
        out[table.columns[table.keyColumns[i]]] = valueJson(key[i]);
    }
    return out;
}

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

nlohmann::json rowDifferenceJson(const verify::TableVerifyResult& table, const verify::RowDifference& difference) {
    nlohmann::json out{{"kind", verify::differenceKindName(difference.kind)},
                       {"upstream", rowJson(table.columns, difference.upstreamRow)},
                       {"downstream", rowJson(table.columns, difference.downstreamRow)},
                       {"settled", difference.settled}};
    if (table.keyless) {
        out["count"] = difference.count;
    } else {
        out["key"] = keyJson(table, difference.key);
    }
    if (difference.kind == verify::DifferenceKind::Different) {
        out["differing_columns"] = difference.differingColumns;
    }
    return out;
}

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
        << " failed" << (report.cancelled ? ", cancelled" : "") << " in " << report.seconds << " s (row hash "
        << report.hash << "; in-flight rows told apart by " << report.taskProgress << ")\n";
}

}  // namespace syncscope::cli
