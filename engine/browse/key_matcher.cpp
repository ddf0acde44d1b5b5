#include "engine/browse/key_matcher.h"

#include <charconv>

#include "engine/browse/row_text.h"

namespace syncscope::browse {

namespace {

constexpr std::string_view kNullText = "NULL";

template <typename Integer>
std::optional<Integer> canonicalInteger(const std::string& text) {
    Integer value{};
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size() || std::to_string(value) != text) {
        return std::nullopt;  // "042", "+42", "4.2": never the text of an integer column's value
    }
    return value;
}

}  // namespace

KeyMatcher::Part KeyMatcher::partOf(std::string text) {
    Part part;
    part.signedValue = canonicalInteger<int64_t>(text);
    part.unsignedValue = canonicalInteger<uint64_t>(text);
    part.text = std::move(text);
    return part;
}

KeyMatcher::KeyMatcher(std::string keyText) : text_(std::move(keyText)), whole_(partOf(text_)) {
    size_t start = 0;
    while (true) {
        size_t comma = text_.find(',', start);
        parts_.push_back(partOf(text_.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
        if (comma == std::string::npos) {
            break;
        }
        start = comma + 1;
    }
}

bool KeyMatcher::partMatches(const Part& part, const binlog::ColumnValue& value, const binlog::ColumnDef& column) {
    using binlog::ValueKind;
    switch (value.kind()) {
        case ValueKind::Null:
            return part.text == kNullText;
        case ValueKind::Int:
            return part.signedValue && value.asInt() == *part.signedValue;
        case ValueKind::UInt:
            return part.unsignedValue && value.asUInt() == *part.unsignedValue;
        case ValueKind::Bit:
            return part.unsignedValue && value.bits() == *part.unsignedValue;
        case ValueKind::Decimal:
        case ValueKind::String:
        case ValueKind::Json:
        case ValueKind::Geometry:
            return value.bytes() == part.text;
        case ValueKind::Bytes:
            if (column.extendedType == binlog::ExtendedType::None) {
                return value.bytes() == part.text;
            }
            break;
        default:
            break;
    }
    return value.toText(column) == part.text;  // temporals, ENUM, SET, YEAR, floats, INET/UUID: as printed
}

bool KeyMatcher::matches(const binlog::RowsEvent& rows, std::span<const binlog::ColumnValue> image,
                         const std::vector<uint32_t>& keyColumns) const {
    if (image.empty()) {
        return text_.empty();
    }
    size_t present = 0;
    for (uint32_t column : keyColumns) {
        present += column < image.size() ? 1 : 0;
    }
    if (present == 1) {
        for (uint32_t column : keyColumns) {
            if (column < image.size()) {
                return partMatches(whole_, image[column], rows.table->columns[column]);
            }
        }
    }
    if (present != parts_.size()) {
        return keyText(rows, image) == text_;  // a comma inside a value, or no key column: compare the text
    }
    size_t part = 0;
    for (uint32_t column : keyColumns) {
        if (column >= image.size()) {
            continue;
        }
        if (!partMatches(parts_[part++], image[column], rows.table->columns[column])) {
            return false;
        }
    }
    return true;
}

}  // namespace syncscope::browse
