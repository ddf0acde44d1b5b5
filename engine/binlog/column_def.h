// One column as a TABLE_MAP event describes it: type code, type metadata and the optional metadata
// (name, signedness, charset, enum/set strings, key membership) that binlog_row_metadata adds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace syncscope::binlog {

// MySQL/MariaDB column type codes as they appear in TABLE_MAP events (enum_field_types).
enum class ColumnType : uint8_t {
    Decimal = 0,
    Tiny = 1,
    Short = 2,
    Long = 3,
    Float = 4,
    Double = 5,
    Null = 6,
    Timestamp = 7,
    LongLong = 8,
    Int24 = 9,
    Date = 10,
    Time = 11,
    DateTime = 12,
    Year = 13,
    NewDate = 14,
    VarChar = 15,
    Bit = 16,
    Timestamp2 = 17,
    DateTime2 = 18,
    Time2 = 19,
    TypedArray = 20,
    BlobCompressed = 140,     // MariaDB BLOB/TEXT ... COMPRESSED (MYSQL_TYPE_BLOB_COMPRESSED)
    VarCharCompressed = 141,  // MariaDB VARCHAR ... COMPRESSED (MYSQL_TYPE_VARCHAR_COMPRESSED)
    Vector = 242,
    Json = 245,
    NewDecimal = 246,
    Enum = 247,
    Set = 248,
    TinyBlob = 249,
    MediumBlob = 250,
    LongBlob = 251,
    Blob = 252,
    VarString = 253,
    String = 254,
    Geometry = 255,
};

// What a fixed-length binary column holds when the schema knows more than the binlog says (MariaDB logs
// INET6, UUID and INET4 as BINARY(16)/BINARY(16)/BINARY(4)); set from the server's column type.
enum class ExtendedType : uint8_t { None, Inet6, Uuid, Inet4 };

struct ColumnDef {
    ColumnType type = ColumnType::Null;
    // Type metadata from TABLE_MAP, already decoded to one 16-bit value per column as MySQL does
    // (e.g. max length, precision<<8|scale, fsp, pack length; for STRING the real type and length).
    uint16_t meta = 0;
    bool isUnsigned = false;              // from the SIGNEDNESS optional metadata (most-significant bit first)
    bool nullable = true;                 // from the TABLE_MAP null bitmap
    bool isBinary = false;                // charset is binary (63): bytes rather than text
    bool isCompressed = false;            // MariaDB compressed column (COMPRESSED attribute)
    uint32_t charset = 0;                 // collation id, 0 when unknown
    std::string name;                     // empty when the event carries no COLUMN_NAME metadata
    std::vector<std::string> enumValues;  // ENUM_STR_VALUE / SET_STR_VALUE metadata
    uint16_t geometryType = 0;
    bool inPrimaryKey = false;
    ExtendedType extendedType = ExtendedType::None;  // never in TABLE_MAP; filled by the schema layer
};

}  // namespace syncscope::binlog
