// The JSON rendering of column values for `syncscope-cli decode --json` (ColumnValue::toJson/appendJson).
#include <cmath>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "engine/binlog/column_value.h"
#include "engine/binlog/value_text.h"

namespace syncscope::binlog {

namespace {

bool rendersAsNumber(ValueKind kind) {
    switch (kind) {
        case ValueKind::Int:
        case ValueKind::UInt:
        case ValueKind::Bit:
        case ValueKind::Year:
            return true;
        default:
            return false;
    }
}

bool isFiniteFloating(const ColumnValue& value) {
    if (value.kind() == ValueKind::Float) {
        return std::isfinite(value.asFloat());
    }
    if (value.kind() == ValueKind::Double) {
        return std::isfinite(value.asDouble());
    }
    return false;
}

// Text and bytes become a JSON string only when they are UTF-8; anything else is shown as hex.
bool rendersAsHex(const ColumnValue& value, const ColumnDef& column) {
    switch (value.kind()) {
        case ValueKind::Geometry:
            return true;
        case ValueKind::Bytes:
            return column.extendedType == ExtendedType::None && !isValidUtf8(value.bytes());
        case ValueKind::String:
            return !isValidUtf8(value.bytes());
        default:
            return false;
    }
}

}  // namespace

void ColumnValue::appendJson(std::string& out, const ColumnDef& column) const {
    if (kind_ == ValueKind::Null) {
        out += "null";
        return;
    }
    if (kind_ == ValueKind::Year) {
        out += std::to_string(scalar_.u);  // YEAR 0 is the number 0, not "0000"
        return;
    }
    if (rendersAsNumber(kind_) || isFiniteFloating(*this)) {
        appendText(out, column);
        return;
    }
    if (kind_ == ValueKind::Json) {
        const std::string_view text = textView();
        out += text.empty() ? std::string_view("null") : text;
        return;
    }
    if (rendersAsHex(*this, column)) {
        out += "{\"hex\": \"";
        appendHex(out, textView());
        out += "\"}";
        return;
    }
    std::string text;
    appendText(text, column);
    appendJsonString(out, text);
}

nlohmann::json ColumnValue::toJson(const ColumnDef& column) const {
    switch (kind_) {
        case ValueKind::Null:
            return nullptr;
        case ValueKind::Int:
            return scalar_.i;
        case ValueKind::UInt:
        case ValueKind::Bit:
        case ValueKind::Year:
            return scalar_.u;
        case ValueKind::Float:
        case ValueKind::Double:
            if (isFiniteFloating(*this)) {
                // Through MariaDB's text so that a FLOAT shows its 6 digits, not the widened double's 17.
                return std::strtod(toText(column).c_str(), nullptr);
            }
            return toText(column);
        case ValueKind::Json: {
            const std::string_view text = textView();
            nlohmann::json document = nlohmann::json::parse(text.empty() ? std::string_view("null") : text, nullptr,
                                                            /*allow_exceptions=*/false);
            return document.is_discarded() ? nlohmann::json(std::string(text)) : document;
        }
        default:
            break;
    }
    if (rendersAsHex(*this, column)) {
        std::string hex;
        appendHex(hex, textView());
        return nlohmann::json{{"hex", hex}};
    }
    return toText(column);
}

}  // namespace syncscope::binlog
