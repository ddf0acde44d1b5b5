#include "engine/browse/row_text.h"

#include "engine/binlog/value_text.h"

namespace syncscope::browse {

namespace {

std::string valueText(const binlog::ColumnValue& value, const binlog::ColumnDef& column) {
    using binlog::ValueKind;
    switch (value.kind()) {
        case ValueKind::Null:
            return "NULL";
        case ValueKind::Int:
        case ValueKind::UInt:
        case ValueKind::Float:
        case ValueKind::Double:
        case ValueKind::Decimal:
        case ValueKind::Year:
        case ValueKind::Bit:
            return value.toText(column);
        default:
            break;
    }
    std::string text = value.toText(column);
    std::string out;
    if (binlog::isValidUtf8(text) && value.kind() != ValueKind::Geometry) {
        out = "'";
        for (char c : text) {
            if (c == '\'') {
                out += "''";
            } else if (c == '\n' || c == '\r' || c == '\t') {
                out += ' ';
            } else {
                out += c;
            }
        }
        return out + "'";
    }
    out = "x'";
    binlog::appendHex(out, text);
    return out + "'";
}

}  // namespace

std::vector<std::string> imageText(const binlog::RowsEvent& rows, std::span<const binlog::ColumnValue> image,
                                   const std::vector<bool>& present) {
    std::vector<std::string> text;
    text.reserve(image.size());
    for (size_t i = 0; i < image.size(); ++i) {
        if (i < present.size() && !present[i]) {
            text.emplace_back(kNotLoggedText);
        } else {
            text.push_back(valueText(image[i], rows.table->columns[i]));
        }
    }
    return text;
}

std::vector<uint32_t> keyColumns(const binlog::TableMap& table) {
    if (table.hasPrimaryKey && !table.primaryKey.empty()) {
        return table.primaryKey;
    }
    return {0};
}

std::string keyText(const binlog::RowsEvent& rows, std::span<const binlog::ColumnValue> image) {
    if (image.empty()) {
        return {};
    }
    std::string text;
    bool first = true;
    for (uint32_t column : keyColumns(*rows.table)) {
        if (column >= image.size()) {
            continue;
        }
        if (!first) {
            text += ',';
        }
        first = false;
        if (image[column].isNull()) {
            text += "NULL";
        } else {
            text += image[column].toText(rows.table->columns[column]);
        }
    }
    return text;
}

std::vector<std::string> columnNames(const binlog::TableMap& table) {
    std::vector<std::string> names;
    names.reserve(table.columns.size());
    for (size_t i = 0; i < table.columns.size(); ++i) {
        const std::string& name = table.columns[i].name;
        names.push_back(name.empty() ? "@" + std::to_string(i + 1) : name);
    }
    return names;
}

}  // namespace syncscope::browse
