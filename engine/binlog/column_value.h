// One column value of a row image, decoded into a compact typed form: fixed-size values (integers,
// floats, temporals, bits, enum indexes, set bits) live inline with no heap allocation; variable-length
// values (text, bytes, exact decimal text, JSON text, geometry) own their bytes, inside the value when
// they are short (up to kInlineCapacity bytes, no heap allocation) and on the heap otherwise. A decoder
// that streams may instead let a value borrow its bytes from the event buffer (setBorrowedText); a
// copy of a borrowed value always owns its bytes.
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
    // Text and bytes up to this size are stored inside the value.
    static constexpr size_t kInlineCapacity = 31;

    ColumnValue() noexcept : kind_(ValueKind::Null), storage_(Storage::Scalar) { scalar_.u = 0; }
    ~ColumnValue() {
        if (storage_ == Storage::Heap) {
            heap_.~basic_string();
        }
    }
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
    // `kind` is one of Decimal, String, Bytes, Json, Geometry: the value takes `text` (long text is not copied).
    static ColumnValue ownedText(ValueKind kind, std::string text);

    // In-place setters: the value becomes the given one, keeping its heap capacity where it can, so
    // that a decoder reusing its values allocates nothing for fixed-size values and short text.
    void setNull() noexcept { resetScalar(ValueKind::Null).u = 0; }
    void setSignedInt(int64_t v) noexcept { resetScalar(ValueKind::Int).i = v; }
    void setUnsignedInt(uint64_t v) noexcept { resetScalar(ValueKind::UInt).u = v; }
    void setFloat(float v) noexcept { resetScalar(ValueKind::Float).f = v; }
    void setDouble(double v) noexcept { resetScalar(ValueKind::Double).d = v; }
    void setYear(uint16_t v) noexcept { resetScalar(ValueKind::Year).u = v; }
    void setDate(const TemporalValue& v) noexcept { resetScalar(ValueKind::Date).t = v; }
    void setTime(const TemporalValue& v) noexcept { resetScalar(ValueKind::Time).t = v; }
    void setDateTime(const TemporalValue& v) noexcept { resetScalar(ValueKind::DateTime).t = v; }
    void setTimestamp(const TimestampValue& v) noexcept { resetScalar(ValueKind::Timestamp).ts = v; }
    void setBit(uint64_t bits) noexcept { resetScalar(ValueKind::Bit).u = bits; }
    void setEnumIndex(uint16_t index) noexcept { resetScalar(ValueKind::Enum).u = index; }
    void setSet(uint64_t members) noexcept { resetScalar(ValueKind::Set).u = members; }
    // `kind` is one of Decimal, String, Bytes, Json, Geometry; the bytes are copied.
    void setText(ValueKind kind, std::string_view bytes);
    // The same without a copy: the value points at `bytes`, which must outlive it (and every value
    // moved from it). For a streaming decoder whose caller is done with a row before the next read.
    void setBorrowedText(ValueKind kind, std::string_view bytes) noexcept;

    ValueKind kind() const { return kind_; }
    bool isNull() const { return kind_ == ValueKind::Null; }
    // Whether bytes() is meaningful (Decimal, String, Bytes, Json, Geometry).
    bool hasBytes() const { return storage_ != Storage::Scalar; }
    // Whether bytes() points into memory the value does not own (see setBorrowedText).
    bool isBorrowed() const { return storage_ == Storage::Borrowed; }

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
    // The 8 bytes of an integer or DOUBLE as stored, unchecked (0 for NULL): for hashing and binding.
    uint64_t scalarBits() const noexcept { return storage_ == Storage::Scalar ? scalar_.u : 0; }

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
    // Where the bytes of a text kind are: none (fixed-size kinds), a heap string, inside the value,
    // or somewhere the value does not own.
    enum class Storage : uint8_t { Scalar, Heap, Inline, Borrowed };
    struct InlineText {
        char data[kInlineCapacity];
        uint8_t size;
    };

    Scalar& resetScalar(ValueKind kind) noexcept {
        if (storage_ == Storage::Heap) {
            heap_.~basic_string();
        }
        storage_ = Storage::Scalar;
        kind_ = kind;
        return scalar_;
    }
    std::string_view textView() const {
        switch (storage_) {
            case Storage::Heap:
                return heap_;
            case Storage::Inline:
                return {inline_.data, inline_.size};
            case Storage::Borrowed:
                return borrowed_;
            case Storage::Scalar:
                break;
        }
        return {};
    }
    void destroy() noexcept;
    void copyFrom(const ColumnValue& other);
    void moveFrom(ColumnValue&& other) noexcept;
    void expect(ValueKind kind) const;
    void expectEither(ValueKind a, ValueKind b) const;
    static ColumnValue withText(ValueKind kind, std::string_view text);

    union {
        Scalar scalar_;
        std::string heap_;
        InlineText inline_;
        std::string_view borrowed_;
    };
    ValueKind kind_;
    Storage storage_;
};

}  // namespace syncscope::binlog
