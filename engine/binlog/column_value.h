// One column value of a row image, decoded into a compact typed form: fixed-size values (integers,
// floats, temporals, bits, enum indexes, set bits) live inline with no heap allocation; variable-length
// values (text, bytes, exact decimal text, JSON text, geometry) own their bytes.
//
// The value keeps the meaning it has without its column (an ENUM stores its 1-based index, a SET its bit
// mask, a TIMESTAMP its UTC seconds); rendering that needs the column (enum strings, BIT width, charset,
// INET6/UUID) takes the ColumnDef.
#pragma once

#include <cstdint>
#include <new>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json_fwd.hpp>

#include "engine/binlog/column_def.h"

namespace syncscope::binlog {

enum class ValueKind : uint8_t {
    Null,
    Int,        // any signed integer width (TINYINT .. BIGINT)
    UInt,       // any unsigned integer width
    Float,      // FLOAT (4 bytes)
    Double,     // DOUBLE (8 bytes)
    Decimal,    // DECIMAL/NEWDECIMAL as exact text with the column's scale, e.g. "-0.50"
    Year,       // YEAR: 0 or 1901..2155
    Date,       // DATE: temporal() year, month, day
    Time,       // TIME/TIME2: temporal() negative, hour (up to 838), minute, second, microsecond, fsp
    DateTime,   // DATETIME/DATETIME2: temporal() all fields, fsp
    Timestamp,  // TIMESTAMP/TIMESTAMP2: timestamp() UTC seconds since the epoch, microsecond, fsp
    Bit,        // BIT(n): bits() right-aligned, n <= 64
    Enum,       // ENUM: enumIndex(), 1-based; 0 is the empty "error" value
    Set,        // SET: bits(), bit i set = member i (0-based) present
    String,     // character data (CHAR, VARCHAR, TEXT, MariaDB JSON): bytes() in the column's charset
    Bytes,      // binary data (BINARY, VARBINARY, BLOB, INET6/UUID/INET4 storage, MySQL VECTOR)
    Json,       // MySQL JSON, converted from its binary form to JSON text: bytes()
    Geometry,   // GEOMETRY: bytes() as stored (4-byte SRID + WKB)
};

const char* valueKindName(ValueKind kind);

// DATE, TIME and DATETIME fields. Fractional seconds are microseconds; fsp is the column's precision
// (0..6), which decides how many digits the text shows.
struct TemporalValue {
    uint16_t year = 0;
    uint8_t month = 0;
    uint8_t day = 0;
    uint16_t hour = 0;  // TIME may exceed 23 (up to 838)
    uint8_t minute = 0;
    uint8_t second = 0;
    uint32_t microsecond = 0;
    uint8_t fsp = 0;
    bool negative = false;  // TIME only

    bool operator==(const TemporalValue&) const = default;
};

// TIMESTAMP: seconds since 1970-01-01 00:00:00 UTC as the binlog stores it (0 is the zero timestamp).
struct TimestampValue {
    int64_t seconds = 0;
    uint32_t microsecond = 0;
    uint8_t fsp = 0;

    bool operator==(const TimestampValue&) const = default;
};

class ColumnValue {
public:
    ColumnValue() noexcept : kind_(ValueKind::Null) { scalar_.u = 0; }
    ~ColumnValue() { destroy(); }
    ColumnValue(const ColumnValue& other);
    ColumnValue(ColumnValue&& other) noexcept;
    ColumnValue& operator=(const ColumnValue& other);
    ColumnValue& operator=(ColumnValue&& other) noexcept;

    static ColumnValue null() { return ColumnValue(); }
    static ColumnValue signedInt(int64_t v);
    static ColumnValue unsignedInt(uint64_t v);
    static ColumnValue floatValue(float v);
    static ColumnValue doubleValue(double v);
    static ColumnValue decimal(std::string text);
    static ColumnValue year(uint16_t v);
    static ColumnValue date(uint16_t year, uint8_t month, uint8_t day);
    static ColumnValue time(const TemporalValue& v);
    static ColumnValue dateTime(const TemporalValue& v);
    static ColumnValue timestamp(int64_t seconds, uint32_t microsecond, uint8_t fsp);
    static ColumnValue bit(uint64_t bits);
    static ColumnValue enumIndex(uint16_t index);
    static ColumnValue set(uint64_t members);
    static ColumnValue string(std::string_view text);
    static ColumnValue bytes(std::string_view data);
    static ColumnValue json(std::string text);
    static ColumnValue geometry(std::string_view data);

    ValueKind kind() const { return kind_; }
    bool isNull() const { return kind_ == ValueKind::Null; }
    // Whether bytes() is meaningful (Decimal, String, Bytes, Json, Geometry).
    bool hasBytes() const;

    // Accessors by kind; calling one for another kind throws syncscope::Error naming both kinds.
    int64_t asInt() const;                    // Int
    uint64_t asUInt() const;                  // UInt
    float asFloat() const;                    // Float
    double asDouble() const;                  // Double
    uint16_t asYear() const;                  // Year
    uint64_t bits() const;                    // Bit, Set
    uint16_t enumIndex() const;               // Enum
    const TemporalValue& temporal() const;    // Date, Time, DateTime
    const TimestampValue& timestamp() const;  // Timestamp
    std::string_view bytes() const;           // Decimal, String, Bytes, Json, Geometry

    // The canonical text, as MariaDB's SELECT returns it in a session with time_zone = '+00:00':
    // integers in decimal; FLOAT and DOUBLE in the shortest form that reads back to the same value
    // (as MariaDB prints a FLOAT/DOUBLE without a declared scale); DECIMAL exact with its scale;
    // YEAR as 4 digits; DATE 'YYYY-MM-DD'; TIME '[-]HH:MM:SS[.f]' with fsp digits; DATETIME and
    // TIMESTAMP 'YYYY-MM-DD HH:MM:SS[.f]' (TIMESTAMP rendered in UTC, the zero timestamp as
    // '0000-00-00 00:00:00'); BIT as its unsigned number; ENUM and SET as their strings (the index /
    // SET bit mask as a number when the column carries no ENUM_STR/SET_STR metadata); text and bytes verbatim;
    // INET6/UUID/INET4 columns (ColumnDef::extendedType) in their text form; JSON as text; NULL as "NULL".
    void appendText(std::string& out, const ColumnDef& column) const;
    std::string toText(const ColumnDef& column) const;

    // The JSON form used by `syncscope-cli decode --json`: numbers for integers, floats, YEAR and BIT;
    // strings for decimals, temporals, ENUM/SET, INET6/UUID/INET4 text and text or bytes that are valid
    // UTF-8; {"hex": "..."} for text or bytes that are not valid UTF-8 and for every GEOMETRY; MySQL JSON
    // as the document itself; null for NULL. NaN/infinite floats (never stored by a server) are strings.
    nlohmann::json toJson(const ColumnDef& column) const;
    void appendJson(std::string& out, const ColumnDef& column) const;

    bool operator==(const ColumnValue& other) const;

private:
    union Scalar {
        int64_t i;
        uint64_t u;
        float f;
        double d;
        TemporalValue t;
        TimestampValue ts;
    };

    bool ownsString() const;
    void destroy() noexcept;
    void copyFrom(const ColumnValue& other);
    void moveFrom(ColumnValue&& other) noexcept;
    void expect(ValueKind kind) const;
    void expectEither(ValueKind a, ValueKind b) const;
    static ColumnValue withString(ValueKind kind, std::string text);

    union {
        Scalar scalar_;
        std::string text_;
    };
    ValueKind kind_;
};

}  // namespace syncscope::binlog
