// One value as the downstream binds it to a prepared-statement parameter: the form decides the
// Connector/C++ setter (integers exact, DECIMAL and temporals as text, binary data as bytes).
//
// The value is a binlog::ColumnValue restricted to the six bind forms (Null, Int, UInt, Double, String for
// text, Bytes): one tagged storage for both, short text kept inside the value, long text owned, or text
// borrowed from a buffer that outlives it (the sync pipeline copies the text of one rows event's values
// into one buffer that its row changes share, RowChange::origin, instead of one allocation per value).
// A copy of a borrowed value owns its bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "engine/binlog/column_def.h"
#include "engine/binlog/column_value.h"

namespace syncscope::apply {

enum class SqlValueKind : uint8_t {
    Null,
    Signed,    // setInt64
    Unsigned,  // setUInt64
    Double,    // setDouble
    Text,      // setString: text in the connection's character set (utf8mb4), DECIMAL, temporals
    Bytes,     // setBlob: passed verbatim, converted by no character set (NUL bytes survive)
};

class SqlValue {
public:
    SqlValue() = default;

    static SqlValue null() { return {}; }
    static SqlValue signedInt(int64_t v) { return SqlValue(binlog::ColumnValue::signedInt(v)); }
    static SqlValue unsignedInt(uint64_t v) { return SqlValue(binlog::ColumnValue::unsignedInt(v)); }
    static SqlValue real(double v) { return SqlValue(binlog::ColumnValue::doubleValue(v)); }
    static SqlValue text(std::string v) {
        return SqlValue(binlog::ColumnValue::ownedText(binlog::ValueKind::String, std::move(v)));
    }
    static SqlValue bytes(std::string v) {
        return SqlValue(binlog::ColumnValue::ownedText(binlog::ValueKind::Bytes, std::move(v)));
    }

    // How a decoded binlog value is bound: ENUM and SET as their index / bit mask (exact whatever the
    // strings), FLOAT as the double it widens to (so WHERE finds the stored float), temporals as
    // their text in UTC (the downstream session runs with time_zone '+00:00'), text of a UTF-8 or
    // unknown character set as text, text of any other character set and binary data as bytes.
    static SqlValue fromColumn(const binlog::ColumnValue& value, const binlog::ColumnDef& column);
    // The same, with text and bytes taken verbatim from the binlog appended to `buffer` and borrowed
    // from there; the caller reserved room for them (a value that would not fit without the buffer
    // moving is owned instead) and keeps the buffer alive and unmoved as long as the value.
    static SqlValue fromColumn(const binlog::ColumnValue& value, const binlog::ColumnDef& column, std::string& buffer);

    SqlValueKind kind() const {
        switch (value_.kind()) {
            case binlog::ValueKind::Int:
                return SqlValueKind::Signed;
            case binlog::ValueKind::UInt:
                return SqlValueKind::Unsigned;
            case binlog::ValueKind::Double:
                return SqlValueKind::Double;
            case binlog::ValueKind::String:
                return SqlValueKind::Text;
            case binlog::ValueKind::Bytes:
                return SqlValueKind::Bytes;
            default:
                return SqlValueKind::Null;
        }
    }
    bool isNull() const { return value_.isNull(); }
    // The number's 8 bytes, read as the form asked (asUnsigned() of a Signed value is its two's complement,
    // as key hashing wants); 0 for NULL, text and bytes.
    int64_t asSigned() const { return static_cast<int64_t>(value_.scalarBits()); }
    uint64_t asUnsigned() const { return value_.scalarBits(); }
    double asDouble() const { return value_.kind() == binlog::ValueKind::Double ? value_.asDouble() : 0.0; }
    // Text and Bytes; empty for the other forms.
    std::string_view asString() const { return value_.hasBytes() ? value_.bytes() : std::string_view(); }
    bool isBorrowed() const { return value_.isBorrowed(); }

    // The value's text for reports (nullopt for NULL): numbers in decimal, text and bytes verbatim.
    std::optional<std::string> text() const;
    // The value as a person reads it in an error message, SQL-literal style: NULL, 42, 'it''s',
    // and 0x... for bytes that are not printable. Long values are cut with their length said.
    std::string display() const;

    bool operator==(const SqlValue& other) const { return value_ == other.value_; }

private:
    explicit SqlValue(binlog::ColumnValue value) : value_(std::move(value)) {}
    static SqlValue borrowedText(SqlValueKind kind, std::string_view bytes, std::string& buffer);

    binlog::ColumnValue value_;  // Null, Int, UInt, Double, String (bound as text) or Bytes
};

// Whether a collation id belongs to utf8mb3/utf8mb4 (or ASCII), whose bytes the utf8mb4 connection
// can carry as text unchanged.
bool isUtf8Collation(uint32_t collationId);

}  // namespace syncscope::apply
