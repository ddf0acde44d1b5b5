// One value as the downstream binds it to a prepared-statement parameter: the form decides the
// Connector/C++ setter (integers exact, DECIMAL and temporals as text, binary data as bytes).
//
// Text and bytes are owned by the value, or borrowed from a buffer that outlives it: the sync pipeline
// copies the text of one rows event's values into one buffer that its row changes share
// (RowChange::origin), instead of one allocation per value. A copy of a borrowed value owns its bytes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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
    SqlValue(const SqlValue& other);
    SqlValue& operator=(const SqlValue& other);
    SqlValue(SqlValue&&) noexcept = default;
    SqlValue& operator=(SqlValue&&) noexcept = default;
    ~SqlValue() = default;

    static SqlValue null() { return {}; }
    static SqlValue signedInt(int64_t v);
    static SqlValue unsignedInt(uint64_t v);
    static SqlValue real(double v);
    static SqlValue text(std::string v);
    static SqlValue bytes(std::string v);

    // How a decoded binlog value is bound: ENUM and SET as their index / bit mask (exact whatever the
    // strings), FLOAT as the double it widens to (so WHERE finds the stored float), temporals as
    // their text in UTC (the downstream session runs with time_zone '+00:00'), text of a UTF-8 or
    // unknown character set as text, text of any other character set and binary data as bytes.
    static SqlValue fromColumn(const binlog::ColumnValue& value, const binlog::ColumnDef& column);
    // The same, with text and bytes taken verbatim from the binlog appended to `buffer` and borrowed
    // from there; the caller reserved room for them (a value that would not fit without the buffer
    // moving is owned instead) and keeps the buffer alive and unmoved as long as the value.
    static SqlValue fromColumn(const binlog::ColumnValue& value, const binlog::ColumnDef& column, std::string& buffer);

    SqlValueKind kind() const { return kind_; }
    bool isNull() const { return kind_ == SqlValueKind::Null; }
    int64_t asSigned() const { return integer_.s; }
    uint64_t asUnsigned() const { return integer_.u; }
    double asDouble() const { return real_; }
    std::string_view asString() const { return borrowed_ ? view_ : std::string_view(string_); }  // Text and Bytes
    bool isBorrowed() const { return borrowed_; }

    // The value's text for reports (nullopt for NULL): numbers in decimal, text and bytes verbatim.
    std::optional<std::string> text() const;
    // The value as a person reads it in an error message, SQL-literal style: NULL, 42, 'it''s',
    // and 0x... for bytes that are not printable. Long values are cut with their length said.
    std::string display() const;

    bool operator==(const SqlValue& other) const;

private:
    static SqlValue borrowedText(SqlValueKind kind, std::string_view bytes, std::string& buffer);

    SqlValueKind kind_ = SqlValueKind::Null;
    bool borrowed_ = false;  // Text and Bytes: view_ points into a buffer the value does not own
    union {
        int64_t s;
        uint64_t u;
    } integer_{0};
    double real_ = 0;
    std::string string_;
    std::string_view view_;
};

// Whether a collation id belongs to utf8mb3/utf8mb4 (or ASCII), whose bytes the utf8mb4 connection
// can carry as text unchanged.
bool isUtf8Collation(uint32_t collationId);

}  // namespace syncscope::apply
