#include "engine/verify/compared_table.h"

#include <charconv>
#include <set>
#include <unordered_map>

#include "engine/verify/verify_error.h"

namespace syncscope::verify {

ValueForm valueFormOf(const schema::SchemaColumn& column) {
    static const std::unordered_map<std::string, ValueForm> kForms = {
        {"tinyint", ValueForm::Signed},    {"smallint", ValueForm::Signed},    {"mediumint", ValueForm::Signed},
        {"int", ValueForm::Signed},        {"bigint", ValueForm::Signed},      {"year", ValueForm::Signed},
        {"bit", ValueForm::Unsigned},      {"decimal", ValueForm::Decimal},    {"float", ValueForm::Real},
        {"double", ValueForm::Real},       {"date", ValueForm::Temporal},      {"time", ValueForm::Temporal},
        {"datetime", ValueForm::Temporal}, {"timestamp", ValueForm::Temporal}, {"binary", ValueForm::Bytes},
        {"varbinary", ValueForm::Bytes},   {"tinyblob", ValueForm::Bytes},     {"blob", ValueForm::Bytes},
        {"mediumblob", ValueForm::Bytes},  {"longblob", ValueForm::Bytes},     {"geometry", ValueForm::Bytes},
        {"point", ValueForm::Bytes},       {"linestring", ValueForm::Bytes},   {"polygon", ValueForm::Bytes},
    };
    auto it = kForms.find(column.typeName);
    if (it == kForms.end()) {
        return ValueForm::Text;
    }
    if (it->second == ValueForm::Signed && column.isUnsigned) {
        return ValueForm::Unsigned;
    }
    return it->second;
}

ComparedTable ComparedTable::plan(const schema::TableSchema& upstream, const schema::TableSchema& downstream) {
    ComparedTable table;
    table.upstream_ = upstream.name();
    table.downstream_ = downstream.name();
    std::vector<std::string> missing;
    for (const auto& column : upstream.columns()) {
        auto downstreamIndex = downstream.columnIndex(column.name);
        if (!downstreamIndex) {
            missing.push_back(column.name);
            continue;
        }
        bool nullable = column.nullable || downstream.columns()[*downstreamIndex].nullable;
        table.columns_.push_back({column.name, valueFormOf(column), false, nullable});
    }
    if (!missing.empty()) {
        std::string names;
        for (const auto& name : missing) {
            names += (names.empty() ? "" : ", ") + name;
        }
        throw VerifyError(table.describe() + ": the downstream table lacks the upstream's column(s) " + names +
                          ": the tables cannot be compared row by row");
    }
    std::set<std::string> upstreamNames;
    for (const auto& column : upstream.columns()) {
        upstreamNames.insert(column.name);
    }
    for (const auto& column : downstream.columns()) {
        if (!upstreamNames.contains(column.name)) {
            table.downstreamOnly_.push_back(column.name);
        }
    }
    const schema::RowKey& key = upstream.rowKey();
    if (key.kind != schema::RowKeyKind::AllColumns) {
        table.keyName_ = key.indexName;
        for (size_t position : key.columns) {
            // Upstream columns are kept in order and none was dropped, so positions carry over.
            table.keyColumns_.push_back(position);
        }
    }
    return table;
}

void ComparedTable::setCharacterSets(const std::map<std::string, std::string>& upstream,
                                     const std::map<std::string, std::string>& downstream) {
    const std::string kUtf8mb4 = "utf8mb4";
    for (auto& column : columns_) {
        auto up = upstream.find(column.name);
        auto down = downstream.find(column.name);
        column.convertToUtf8mb4 =
            column.form == ValueForm::Text && ((up != upstream.end() && up->second != kUtf8mb4) ||
                                               (down != downstream.end() && down->second != kUtf8mb4));
    }
}

RowValues ComparedTable::keyOf(const RowValues& row) const {
    RowValues key;
    key.reserve(keyColumns_.size());
    for (size_t position : keyColumns_) {
        key.push_back(row.at(position));
    }
    return key;
}

apply::SqlValue ComparedTable::boundValue(size_t column, const std::optional<std::string>& value) const {
    if (!value) {
        return apply::SqlValue::null();
    }
    const std::string& text = *value;
    switch (columns_.at(column).form) {
        case ValueForm::Signed: {
            int64_t number = 0;
            auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
            if (error == std::errc() && end == text.data() + text.size()) {
                return apply::SqlValue::signedInt(number);
            }
            return apply::SqlValue::text(text);
        }
        case ValueForm::Unsigned: {
            uint64_t number = 0;
            auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), number);
            if (error == std::errc() && end == text.data() + text.size()) {
                return apply::SqlValue::unsignedInt(number);
            }
            return apply::SqlValue::text(text);
        }
        case ValueForm::Bytes:
            return apply::SqlValue::bytes(text);
        case ValueForm::Decimal:
        case ValueForm::Real:
        case ValueForm::Temporal:
        case ValueForm::Text:
            return apply::SqlValue::text(text);
    }
    return apply::SqlValue::text(text);
}

std::string ComparedTable::describe() const {
    if (upstream_ == downstream_) {
        return "table " + upstream_.text();
    }
    return "upstream table " + upstream_.text() + " (downstream " + downstream_.text() + ")";
}

}  // namespace syncscope::verify
