#include "engine/apply/sql_value.h"

#include <cstdio>

namespace syncscope::apply {

namespace {

constexpr size_t kDisplayLimit = 200;  // bytes of a value shown in a message before it is cut

bool printable(std::string_view s) {
    for (unsigned char c : s) {
        if (c < 0x20 || c == 0x7f) {
            return false;
        }
    }
    return true;
}

}  // namespace

SqlValue SqlValue::borrowedText(SqlValueKind kind, std::string_view bytes, std::string& buffer) {
    const binlog::ValueKind stored = kind == SqlValueKind::Bytes ? binlog::ValueKind::Bytes : binlog::ValueKind::String;
    SqlValue value;
    if (buffer.size() + bytes.size() > buffer.capacity()) {
        value.value_.setText(stored, bytes);  // appending would move the buffer under the values that borrow from it
        return value;
    }
    size_t at = buffer.size();
    buffer.append(bytes);
    value.value_.setBorrowedText(stored, std::string_view(buffer).substr(at, bytes.size()));
    return value;
}

bool isUtf8Collation(uint32_t id) {
    // Collation ids of MySQL 8.0 and MariaDB 10.x/11.x (ctype tables; MariaDB's UCA 14.0.0 ids
    // encode the character set in bits 8..10 above 2048: 0 = utf8mb3, 1 = utf8mb4).
    constexpr uint32_t kAsciiGeneral = 11, kAsciiBin = 65;
    constexpr uint32_t kUtf8GeneralCi = 33, kUtf8mb4GeneralCi = 45, kUtf8mb4Bin = 46, kUtf8Bin = 83;
    constexpr uint32_t kUtf8UcaFirst = 192, kUtf8mb4UcaLast = 247;
    constexpr uint32_t kUtf8mb4Mysql8First = 255, kUtf8mb4Mysql8Last = 323;
    constexpr uint32_t kMariaUtf8NopadFirst = 576, kMariaUtf8NopadLast = 579;
    constexpr uint32_t kMariaUtf8mb4NopadFirst = 608, kMariaUtf8mb4NopadLast = 611;
    constexpr uint32_t kMariaNopadFirst = 1024, kMariaNopadLast = 2047;  // MariaDB: the PAD SPACE id + 1024
    constexpr uint32_t kUca1400First = 2048, kUca1400Utf8Last = 2048 + 511;
    if (id >= kMariaNopadFirst && id <= kMariaNopadLast) {
        id -= kMariaNopadFirst;
    }
    return id == kAsciiGeneral || id == kAsciiBin || id == kUtf8GeneralCi || id == kUtf8mb4GeneralCi ||
           id == kUtf8mb4Bin || id == kUtf8Bin || (id >= kUtf8UcaFirst && id <= kUtf8mb4UcaLast) ||
           (id >= kUtf8mb4Mysql8First && id <= kUtf8mb4Mysql8Last) ||
           (id >= kMariaUtf8NopadFirst && id <= kMariaUtf8NopadLast) ||
           (id >= kMariaUtf8mb4NopadFirst && id <= kMariaUtf8mb4NopadLast) ||
           (id >= kUca1400First && id <= kUca1400Utf8Last);
}

SqlValue SqlValue::fromColumn(const binlog::ColumnValue& value, const binlog::ColumnDef& column) {
    using binlog::ValueKind;
    switch (value.kind()) {
        case ValueKind::Null:
            return null();
        case ValueKind::Int:
            return signedInt(value.asInt());
        case ValueKind::UInt:
            return unsignedInt(value.asUInt());
        case ValueKind::Float:
            return real(static_cast<double>(value.asFloat()));
        case ValueKind::Double:
            return real(value.asDouble());
        case ValueKind::Year:
            return unsignedInt(value.asYear());
        case ValueKind::Bit:
        case ValueKind::Set:
            return unsignedInt(value.bits());
        case ValueKind::Enum:
            return unsignedInt(value.enumIndex());
        case ValueKind::Decimal:
        case ValueKind::Json:
            return text(std::string(value.bytes()));
        case ValueKind::Date:
        case ValueKind::Time:
        case ValueKind::DateTime:
        case ValueKind::Timestamp:
            return text(value.toText(column));
        case ValueKind::String:
            if (column.charset == 0 || isUtf8Collation(column.charset)) {
                return text(std::string(value.bytes()));
            }
            return bytes(std::string(value.bytes()));
        case ValueKind::Bytes:
            // INET6/UUID/INET4 are written in their text form, which every server version accepts.
            if (column.extendedType != binlog::ExtendedType::None) {
                return text(value.toText(column));
            }
            return bytes(std::string(value.bytes()));
        case ValueKind::Geometry:
            return bytes(std::string(value.bytes()));
    }
    return null();
}

SqlValue SqlValue::fromColumn(const binlog::ColumnValue& value, const binlog::ColumnDef& column, std::string& buffer) {
    using binlog::ValueKind;
    switch (value.kind()) {
        case ValueKind::Decimal:
        case ValueKind::Json:
            return borrowedText(SqlValueKind::Text, value.bytes(), buffer);
        case ValueKind::String:
            return borrowedText(
                column.charset == 0 || isUtf8Collation(column.charset) ? SqlValueKind::Text : SqlValueKind::Bytes,
                value.bytes(), buffer);
        case ValueKind::Bytes:
            if (column.extendedType != binlog::ExtendedType::None) {
                return fromColumn(value, column);
            }
            return borrowedText(SqlValueKind::Bytes, value.bytes(), buffer);
        case ValueKind::Geometry:
            return borrowedText(SqlValueKind::Bytes, value.bytes(), buffer);
        default:
            return fromColumn(value, column);
    }
}

std::optional<std::string> SqlValue::text() const {
    switch (kind()) {
        case SqlValueKind::Null:
            return std::nullopt;
        case SqlValueKind::Signed:
            return std::to_string(asSigned());
        case SqlValueKind::Unsigned:
            return std::to_string(asUnsigned());
        case SqlValueKind::Double: {
            constexpr int kRoundTripDigits = 17;
            char buffer[64];
            std::snprintf(buffer, sizeof buffer, "%.*g", kRoundTripDigits, asDouble());
            return std::string(buffer);
        }
        case SqlValueKind::Text:
        case SqlValueKind::Bytes:
            return std::string(asString());
    }
    return std::nullopt;
}

std::string SqlValue::display() const {
    const SqlValueKind form = kind();
    if (form == SqlValueKind::Null) {
        return "NULL";
    }
    if (form != SqlValueKind::Text && form != SqlValueKind::Bytes) {
        return *text();
    }
    const std::string_view bytes = asString();
    bool cut = bytes.size() > kDisplayLimit;
    std::string_view shown = cut ? bytes.substr(0, kDisplayLimit) : bytes;
    std::string out;
    if (printable(shown)) {
        out = "'";
        for (char c : shown) {
            out += c == '\'' ? std::string("''") : std::string(1, c);
        }
        out += "'";
    } else {
        static const char* const kHex = "0123456789abcdef";
        out = "0x";
        for (unsigned char c : shown) {
            out += kHex[c >> 4];
            out += kHex[c & 0xf];
        }
    }
    if (cut) {
        out += "... (" + std::to_string(bytes.size()) + " bytes)";
    }
    return out;
}

}  // namespace syncscope::apply
