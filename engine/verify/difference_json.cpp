#include "engine/verify/difference_json.h"

namespace syncscope::verify {
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

}  // namespace

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

nlohmann::json rowJson(const std::vector<std::string>& columns, const RowValues& row) {
    if (row.empty()) {
        return nullptr;
    }
    nlohmann::json out = nlohmann::json::object();
    for (size_t i = 0; i < columns.size() && i < row.size(); ++i) {
        out[columns[i]] = valueJson(row[i]);
    }
    return out;
}

nlohmann::json keyJson(const TableVerifyResult& table, const RowValues& key) {
    nlohmann::json out = nlohmann::json::object();
    for (size_t i = 0; i < table.keyColumns.size() && i < key.size(); ++i) {
        out[table.columns[table.keyColumns[i]]] = valueJson(key[i]);
    }
    return out;
}

nlohmann::json rowDifferenceJson(const TableVerifyResult& table, const RowDifference& difference) {
    nlohmann::json out{{"kind", differenceKindName(difference.kind)},
                       {"upstream", rowJson(table.columns, difference.upstreamRow)},
                       {"downstream", rowJson(table.columns, difference.downstreamRow)},
                       {"settled", difference.settled}};
    if (table.keyless) {
        out["count"] = difference.count;
    } else {
        out["key"] = keyJson(table, difference.key);
    }
    if (difference.kind == DifferenceKind::Different) {
        out["differing_columns"] = difference.differingColumns;
    }
    return out;
}

nlohmann::json repairAuditDetails(const ComparedTable& table, const std::vector<RowDifference>& differences,
                                  const RepairPlan& plan) {
    TableVerifyResult named;
    for (const auto& column : table.columns()) {
        named.columns.push_back(column.name);
    }
    named.keyColumns = table.keyColumns();
    named.keyless = !table.hasKey();
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& difference : differences) {
        rows.push_back(rowDifferenceJson(named, difference));
    }
    return {{"upstream_table", table.upstreamName().text()},
            {"downstream_table", table.downstreamName().text()},
            {"sql", plan.sqlText()},
            {"differences", rows}};
}

}  // namespace syncscope::verify
