#include "engine/verify/verify_summary_file.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "engine/binlog/value_text.h"

namespace syncscope::verify {

namespace {

constexpr double kFinishedWithoutTime = 1e-6;  // seconds: marks a table done (TableVerifyResult::seconds > 0)

nlohmann::json valueJson(const std::optional<std::string>& value) {
    if (!value) {
        return nullptr;
    }
    if (binlog::isValidUtf8(*value)) {
        return *value;
    }
    std::string hex;
    binlog::appendHex(hex, *value);
    return {{"hex", hex}};
}

nlohmann::json rowJson(const RowValues& row) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& value : row) {
        out.push_back(valueJson(value));
    }
    return out;
}

// Reads what the file says, or throws naming the file, the table and the key.
class SummaryReader {
public:
    explicit SummaryReader(std::string path) : path_(std::move(path)) {}

    [[noreturn]] void fail(const std::string& what) const {
        throw VerifyError("the verify results " + path_ + (where_.empty() ? "" : ", " + where_) + ": " + what);
    }
    void setWhere(std::string where) { where_ = std::move(where); }

    const nlohmann::json& field(const nlohmann::json& object, const char* key, nlohmann::json::value_t type) const {
        if (!object.is_object() || !object.contains(key)) {
            fail(std::string("'") + key + "' is missing");
        }
        const nlohmann::json& value = object.at(key);
        const bool numberWanted = type == nlohmann::json::value_t::number_unsigned;
        if (numberWanted ? !value.is_number_unsigned() : value.type() != type) {
            fail(std::string("'") + key + "' is " + value.type_name() + ", not " +
                 (numberWanted ? "a whole number" : nlohmann::json(type).type_name()));
        }
        return value;
    }
    std::string text(const nlohmann::json& object, const char* key) const {
        return field(object, key, nlohmann::json::value_t::string).get<std::string>();
    }
    uint64_t number(const nlohmann::json& object, const char* key) const {
        return field(object, key, nlohmann::json::value_t::number_unsigned).get<uint64_t>();
    }
    // Optional keys (files written before they existed): a default when absent.
    const nlohmann::json& list(const nlohmann::json& object, const char* key) const {
        static const nlohmann::json kEmpty = nlohmann::json::array();
        return object.contains(key) ? field(object, key, nlohmann::json::value_t::array) : kEmpty;
    }

    std::optional<std::string> value(const nlohmann::json& value) const {
        if (value.is_null()) {
            return std::nullopt;
        }
        if (value.is_string()) {
            return value.get<std::string>();
        }
        const std::string hex = value.is_object() ? value.value("hex", std::string("?")) : std::string("?");
        if (hex.size() % 2 != 0 || hex.find_first_not_of("0123456789abcdef") != std::string::npos) {
            fail("a value is neither null, a string nor {\"hex\": ...}: " + value.dump());
        }
        std::string bytes;
        constexpr int kHexBase = 16;
        for (size_t i = 0; i < hex.size(); i += 2) {
            bytes.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, kHexBase)));
        }
        return bytes;
    }
    RowValues row(const nlohmann::json& values) const {
        if (!values.is_array()) {
            fail("a row is not a list of values: " + values.dump());
        }
        RowValues out;
        for (const auto& v : values) {
            out.push_back(value(v));
        }
        return out;
    }

private:
    std::string path_;
    std::string where_;
};

schema::TableName tableNameOf(const SummaryReader& reader, const std::string& text) {
    auto dot = text.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == text.size()) {
        reader.fail("'" + text + "' is not a schema.table name");
    }
    return {text.substr(0, dot), text.substr(dot + 1)};
}

TableOutcome outcomeOf(const SummaryReader& reader, const std::string& text) {
    for (TableOutcome outcome :
         {TableOutcome::Equal, TableOutcome::Different, TableOutcome::Failed, TableOutcome::Cancelled}) {
        if (text == tableOutcomeName(outcome)) {
            return outcome;
        }
    }
    reader.fail("outcome '" + text + "' is none of equal, different, failed, cancelled");
}

DifferenceKind kindOf(const SummaryReader& reader, const std::string& text) {
    for (DifferenceKind kind : {DifferenceKind::Missing, DifferenceKind::Extra, DifferenceKind::Different}) {
        if (text == differenceKindName(kind)) {
            return kind;
        }
    }
    reader.fail("difference kind '" + text + "' is none of missing, extra, different");
}

}  // namespace

nlohmann::json tableDetailsJson(const TableVerifyResult& table) {
    nlohmann::json differences = nlohmann::json::array();
    for (const auto& difference : table.differences) {
        if (differences.size() >= kDifferencesKept) {
            break;
        }
        differences.push_back({{"kind", differenceKindName(difference.kind)},
                               {"key", rowJson(difference.key)},
                               {"upstream_row", rowJson(difference.upstreamRow)},
                               {"downstream_row", rowJson(difference.downstreamRow)},
                               {"differing_columns", difference.differingColumns},
                               {"count", difference.count},
                               {"settled", difference.settled}});
    }
    nlohmann::json details{
        {"table_seconds", table.seconds}, {"columns", table.columns}, {"key_columns", table.keyColumns},
        {"keyless", table.keyless},       {"notes", table.notes},     {"difference_rows", differences}};
    if (table.repair) {
        details["repair"] = {{"sql", table.repair->sql},
                             {"statements", table.repair->statements},
                             {"applied", table.repair->applied},
                             {"still_different", table.repair->stillDifferent}};
    }
    return details;
}

SavedVerify loadVerifySummary(const std::string& path) {
    SummaryReader reader(path);
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        reader.fail("cannot be read (missing, or no permission)");
    }
    std::stringstream text;
    text << in.rdbuf();
    nlohmann::json json = nlohmann::json::parse(text.str(), nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
        reader.fail("not a JSON object (written by `syncscope-cli verify`?)");
    }
    SavedVerify saved;
    saved.finishedAt = static_cast<int64_t>(reader.number(json, "finished_at"));
    saved.report.cancelled = json.value("cancelled", false);
    saved.report.seconds = json.value("seconds", 0.0);
    for (const auto& entry : reader.field(json, "tables", nlohmann::json::value_t::array)) {
        TableVerifyResult table;
        table.upstream = tableNameOf(reader, reader.text(entry, "upstream"));
        reader.setWhere("table " + table.upstream.text());
        table.downstream = tableNameOf(reader, reader.text(entry, "downstream"));
        table.outcome = outcomeOf(reader, reader.text(entry, "outcome"));
        table.problem = entry.value("problem", std::string());
        const std::string file = entry.value("verified_file", std::string());
        if (!file.empty()) {
            table.verifiedAt = binlog::Location::fromParts(file, entry.value("verified_pos", uint64_t{0}), "");
        }
        table.chunksDone = reader.number(entry, "chunks_done");
        table.chunksTotal = reader.number(entry, "chunks_total");
        table.rowsCompared = reader.number(entry, "rows_compared");
        // A saved table was finished; a file written before its time was kept does not say how long it took.
        table.seconds = std::max(entry.value("table_seconds", 0.0), kFinishedWithoutTime);
        saved.differencesTotal += reader.number(entry, "differences");
        for (const auto& column : reader.list(entry, "columns")) {
            table.columns.push_back(column.is_string() ? column.get<std::string>() : column.dump());
        }
        for (const auto& position : reader.list(entry, "key_columns")) {
            if (!position.is_number_unsigned() || position.get<size_t>() >= table.columns.size()) {
                reader.fail("a key column " + position.dump() + " is not one of the " +
                            std::to_string(table.columns.size()) + " columns");
            }
            table.keyColumns.push_back(position.get<size_t>());
        }
        table.keyless = entry.value("keyless", false);
        for (const auto& note : reader.list(entry, "notes")) {
            table.notes.push_back(note.is_string() ? note.get<std::string>() : note.dump());
        }
        for (const auto& listed : reader.list(entry, "difference_rows")) {
            RowDifference difference;
            difference.kind = kindOf(reader, reader.text(listed, "kind"));
            difference.key = reader.row(listed.value("key", nlohmann::json::array()));
            difference.upstreamRow = reader.row(listed.value("upstream_row", nlohmann::json::array()));
            difference.downstreamRow = reader.row(listed.value("downstream_row", nlohmann::json::array()));
            for (const auto& column : reader.list(listed, "differing_columns")) {
                difference.differingColumns.push_back(column.is_string() ? column.get<std::string>() : column.dump());
            }
            difference.count = listed.value("count", uint64_t{1});
            difference.settled = listed.value("settled", true);
            table.differences.push_back(std::move(difference));
        }
        if (entry.contains("repair")) {
            const nlohmann::json& repair = reader.field(entry, "repair", nlohmann::json::value_t::object);
            RepairOutcome outcome;
            outcome.sql = reader.text(repair, "sql");
            outcome.statements = reader.number(repair, "statements");
            outcome.applied = repair.value("applied", false);
            outcome.stillDifferent = repair.value("still_different", size_t{0});
            table.repair = std::move(outcome);
        }
        reader.setWhere({});
        saved.report.tables.push_back(std::move(table));
    }
    return saved;
}

}  // namespace syncscope::verify
