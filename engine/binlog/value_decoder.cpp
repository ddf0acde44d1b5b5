#include "engine/binlog/value_decoder.h"

#include <zlib.h>

#include <array>
#include <cstring>
#include <string>

#include "engine/binlog/decimal.h"
#include "engine/binlog/mysql_json.h"
#include "engine/binlog/temporal.h"
#include "engine/common/error.h"

namespace syncscope::binlog {

namespace {

constexpr uint16_t kMaxOneByteLength = 255;  // longer VARCHAR/CHAR values have a 2-byte length
constexpr uint8_t kStringTypeBits = 0x30;    // STRING meta: real type bits that carry length bits 8-9
constexpr uint8_t kMaxBitBytes = 8;
constexpr uint8_t kMaxSetBytes = 8;
constexpr uint8_t kMaxEnumBytes = 2;
constexpr uint8_t kMaxPackLength = 4;
constexpr uint8_t kCompressedFlag = 0x80;       // MariaDB compressed column header: data is compressed
constexpr uint8_t kCompressionMethodShift = 4;  // header bits 4-7: method (8 = zlib)
constexpr uint8_t kZlibMethod = 8;
constexpr uint8_t kRawDeflateFlag = 0x08;      // header bit 3: raw deflate, no zlib wrapper
constexpr uint8_t kOriginalLengthMask = 0x07;  // header bits 0-2: bytes of the original length
constexpr uint64_t kMaxDeflateRatio = 1032;    // deflate never expands data by more than about 1032:1
constexpr uint64_t kDeflateSlack = 64;
constexpr unsigned kYearBase = 1900;
constexpr size_t kMaxPaddedBinary = 1024;  // a STRING column's metadata holds lengths up to 1023

std::string typeName(const ColumnDef& column) {
    return "column type " + std::to_string(static_cast<unsigned>(column.type));
}

uint8_t checkedPackLength(const ColumnDef& column, const char* what) {
    if (column.meta < 1 || column.meta > kMaxPackLength) {
        throw Error(std::string(what) + " with length-prefix size " + std::to_string(column.meta) +
                    " in the table map (1..4)");
    }
    return static_cast<uint8_t>(column.meta);
}

std::string_view readLengthPrefixed(ByteReader& reader, size_t prefixBytes, const char* what) {
    uint64_t length = reader.uintN(prefixBytes, what);
    return reader.bytes(static_cast<size_t>(length), what);
}

// MariaDB's COMPRESSED column payload: one header byte, then either the bytes as they are (header 0)
// or the original length (big-endian, 1-4 bytes) followed by zlib or raw deflate data.
void decompressMariadbColumn(std::string_view stored, uint64_t maxLength, std::string& out, const char* what) {
    out.clear();
    if (stored.empty()) {
        return;
    }
    auto header = static_cast<uint8_t>(stored[0]);
    std::string_view rest = stored.substr(1);
    if ((header & kCompressedFlag) == 0) {
        out.assign(rest);
        return;
    }
    if ((header >> kCompressionMethodShift) != kZlibMethod) {
        throw Error(std::string(what) + ": unknown column compression method in header byte " + std::to_string(header));
    }
    const size_t lengthBytes = header & kOriginalLengthMask;
    if (lengthBytes == 0 || lengthBytes > 4 || rest.size() < lengthBytes) {
        throw Error(std::string(what) + ": compressed header byte " + std::to_string(header) +
                    " does not fit the value's " + std::to_string(stored.size()) + " bytes");
    }
    ByteReader lengthReader(rest.substr(0, lengthBytes));
    uint64_t original = lengthReader.uintBigEndian(lengthBytes, what);
    // Bounded by the column's size and by what deflate can expand to, so that a corrupt length
    // cannot make us allocate gigabytes.
    const uint64_t expandable = static_cast<uint64_t>(rest.size()) * kMaxDeflateRatio + kDeflateSlack;
    if (original > maxLength || original > expandable) {
        throw Error(std::string(what) + ": original length " + std::to_string(original) +
                    " is impossible for a column of at most " + std::to_string(maxLength) + " bytes stored in " +
                    std::to_string(stored.size()) + " bytes");
    }
    rest.remove_prefix(lengthBytes);
    out.resize(static_cast<size_t>(original));
    z_stream stream{};
    const int windowBits = (header & kRawDeflateFlag) ? -MAX_WBITS : MAX_WBITS;
    if (inflateInit2(&stream, windowBits) != Z_OK) {
        throw Error(std::string(what) + ": zlib could not start");
    }
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(rest.data()));
    stream.avail_in = static_cast<uInt>(rest.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    int result = inflate(&stream, Z_FINISH);
    const uLong produced = stream.total_out;
    inflateEnd(&stream);
    if (result != Z_STREAM_END || produced != original) {
        throw Error(std::string(what) + ": compressed data is corrupt (zlib result " + std::to_string(result) + ", " +
                    std::to_string(produced) + " of " + std::to_string(original) + " bytes)");
    }
}

void assignText(ColumnValue& out, ValueKind kind, std::string_view bytes, TextStorage storage) {
    if (storage == TextStorage::Borrow) {
        out.setBorrowedText(kind, bytes);
    } else {
        out.setText(kind, bytes);
    }
}

ValueKind textOrBytes(const ColumnDef& column) {
    return column.isBinary ? ValueKind::Bytes : ValueKind::String;
}

void decodeInteger(const ColumnDef& column, ByteReader& reader, size_t size, ColumnValue& out) {
    uint64_t raw = reader.uintN(size, "integer");
    if (column.isUnsigned) {
        out.setUnsignedInt(raw);
        return;
    }
    const unsigned shift = static_cast<unsigned>(64 - 8 * size);
    out.setSignedInt(static_cast<int64_t>(raw << shift) >> shift);  // sign-extend
}

void decodeEnumOrSet(ColumnType realType, size_t size, ByteReader& reader, ColumnValue& out) {
    if (realType == ColumnType::Enum) {
        if (size < 1 || size > kMaxEnumBytes) {
            throw Error("ENUM with " + std::to_string(size) + "-byte storage in the table map (1 or 2)");
        }
        out.setEnumIndex(static_cast<uint16_t>(reader.uintN(size, "ENUM")));
        return;
    }
    if (size < 1 || size > kMaxSetBytes) {
        throw Error("SET with " + std::to_string(size) + "-byte storage in the table map (1..8)");
    }
    out.setSet(reader.uintN(size, "SET"));
}

// BINARY(n) is logged without its trailing zero bytes; SELECT returns them, so put them back. Out of
// line: its buffer would otherwise enlarge the stack frame of every value decoded.
[[gnu::noinline]] void setPaddedBinary(ColumnValue& out, std::string_view bytes, uint32_t length) {
    std::array<char, kMaxPaddedBinary> padded{};
    std::memcpy(padded.data(), bytes.data(), bytes.size());
    out.setText(ValueKind::Bytes, std::string_view(padded.data(), length));
}

// STRING (CHAR/BINARY, and ENUM/SET as MySQL logs them): the first metadata byte is the real type,
// except that CHAR columns longer than 255 bytes keep length bits 8-9 in its bits 4-5 (inverted).
void decodeString(const ColumnDef& column, ByteReader& reader, ColumnValue& out, TextStorage storage) {
    auto byte0 = static_cast<uint8_t>(column.meta >> 8);
    auto byte1 = static_cast<uint8_t>(column.meta & 0xFF);
    uint32_t maxLength = byte1;
    auto realType = static_cast<ColumnType>(byte0);
    if (byte0 != 0 && (byte0 & kStringTypeBits) != kStringTypeBits) {
        maxLength = byte1 | (static_cast<uint32_t>((byte0 & kStringTypeBits) ^ kStringTypeBits) << 4);
        realType = static_cast<ColumnType>(byte0 | kStringTypeBits);
    }
    if (realType == ColumnType::Enum || realType == ColumnType::Set) {
        decodeEnumOrSet(realType, byte1, reader, out);
        return;
    }
    std::string_view bytes = readLengthPrefixed(reader, maxLength > kMaxOneByteLength ? 2 : 1, "CHAR");
    if (column.isBinary && bytes.size() < maxLength) {
        setPaddedBinary(out, bytes, maxLength);
        return;
    }
    assignText(out, textOrBytes(column), bytes, storage);
}

void decodeBit(const ColumnDef& column, ByteReader& reader, ColumnValue& out) {
    const unsigned bits = (column.meta >> 8) * 8u + (column.meta & 0xFF);
    const unsigned bytes = (bits + 7) / 8;
    if (bytes < 1 || bytes > kMaxBitBytes) {
        throw Error("BIT(" + std::to_string(bits) + ") in the table map (1..64 bits)");
    }
    out.setBit(reader.uintBigEndian(bytes, "BIT"));
}

void decodeBlobLike(const ColumnDef& column, ByteReader& reader, size_t packLength, ValueKind kind, ColumnValue& out,
                    TextStorage storage) {
    std::string_view bytes = readLengthPrefixed(reader, packLength, "BLOB");
    if (column.type == ColumnType::Json) {
        out = ColumnValue::json(mysqlJsonToText(bytes));
        return;
    }
    assignText(out, kind, bytes, storage);
}

void decodeCompressed(const ColumnDef& column, ByteReader& reader, size_t prefixBytes, ColumnValue& out) {
    const char* what = column.type == ColumnType::VarCharCompressed ? "compressed VARCHAR" : "compressed BLOB";
    std::string_view stored = readLengthPrefixed(reader, prefixBytes, what);
    // A VARCHAR's max length is its metadata; a BLOB's is what its length prefix can count.
    const uint64_t maxLength = column.type == ColumnType::VarCharCompressed
                                   ? column.meta
                                   : (prefixBytes >= 4 ? uint64_t{0xFFFFFFFF} : (uint64_t{1} << (8 * prefixBytes)) - 1);
    std::string plain;
    decompressMariadbColumn(stored, maxLength, plain, what);
    out.setText(textOrBytes(column), plain);
}

}  // namespace

void decodeColumnValueInto(const ColumnDef& column, ByteReader& reader, ColumnValue& out, TextStorage storage) {
    switch (column.type) {
        case ColumnType::Tiny:
            return decodeInteger(column, reader, 1, out);
        case ColumnType::Short:
            return decodeInteger(column, reader, 2, out);
        case ColumnType::Int24:
            return decodeInteger(column, reader, 3, out);
        case ColumnType::Long:
            return decodeInteger(column, reader, 4, out);
        case ColumnType::LongLong:
            return decodeInteger(column, reader, 8, out);
        case ColumnType::Float: {
            auto raw = static_cast<uint32_t>(reader.u32("FLOAT"));
            float value;
            static_assert(sizeof(value) == sizeof(raw));
            std::memcpy(&value, &raw, sizeof(value));
            out.setFloat(value);
            return;
        }
        case ColumnType::Double: {
            uint64_t raw = reader.u64("DOUBLE");
            double value;
            static_assert(sizeof(value) == sizeof(raw));
            std::memcpy(&value, &raw, sizeof(value));
            out.setDouble(value);
            return;
        }
        case ColumnType::NewDecimal: {
            DecimalText buffer;
            out.setText(ValueKind::Decimal, readDecimalText(reader, column.meta >> 8, column.meta & 0xFF, buffer));
            return;
        }
        case ColumnType::Year: {
            uint8_t v = reader.u8("YEAR");
            out.setYear(static_cast<uint16_t>(v == 0 ? 0 : kYearBase + v));
            return;
        }
        case ColumnType::Date:
        case ColumnType::NewDate:
            out.setDate(readDate(reader));
            return;
        case ColumnType::Time:
            out.setTime(readOldTime(reader));
            return;
        case ColumnType::Time2:
            out.setTime(readTime2(reader, static_cast<uint8_t>(column.meta)));
            return;
        case ColumnType::DateTime:
            out.setDateTime(readOldDateTime(reader));
            return;
        case ColumnType::DateTime2:
            out.setDateTime(readDateTime2(reader, static_cast<uint8_t>(column.meta)));
            return;
        case ColumnType::Timestamp:
            out.setTimestamp(TimestampValue{reader.u32("TIMESTAMP"), 0, 0});
            return;
        case ColumnType::Timestamp2:
            out.setTimestamp(readTimestamp2(reader, static_cast<uint8_t>(column.meta)));
            return;
        case ColumnType::VarChar:
        case ColumnType::VarString:
            assignText(out, textOrBytes(column),
                       readLengthPrefixed(reader, column.meta > kMaxOneByteLength ? 2 : 1, "VARCHAR"), storage);
            return;
        case ColumnType::String:
            return decodeString(column, reader, out, storage);
        case ColumnType::Enum:
        case ColumnType::Set:
            return decodeEnumOrSet(column.type, column.meta & 0xFF, reader, out);
        case ColumnType::Bit:
            return decodeBit(column, reader, out);
        case ColumnType::TinyBlob:
            return decodeBlobLike(column, reader, 1, textOrBytes(column), out, storage);
        case ColumnType::MediumBlob:
            return decodeBlobLike(column, reader, 3, textOrBytes(column), out, storage);
        case ColumnType::LongBlob:
            return decodeBlobLike(column, reader, 4, textOrBytes(column), out, storage);
        case ColumnType::Blob:
            return decodeBlobLike(column, reader, checkedPackLength(column, "BLOB"), textOrBytes(column), out, storage);
        case ColumnType::Geometry:
            return decodeBlobLike(column, reader, checkedPackLength(column, "GEOMETRY"), ValueKind::Geometry, out,
                                  storage);
        case ColumnType::Json:
            return decodeBlobLike(column, reader, checkedPackLength(column, "JSON"), ValueKind::Json, out, storage);
        case ColumnType::Vector:
            return decodeBlobLike(column, reader, checkedPackLength(column, "VECTOR"), ValueKind::Bytes, out, storage);
        case ColumnType::VarCharCompressed:
            return decodeCompressed(column, reader, column.meta > kMaxOneByteLength ? 2 : 1, out);
        case ColumnType::BlobCompressed:
            return decodeCompressed(column, reader, checkedPackLength(column, "compressed BLOB"), out);
        case ColumnType::Null:
            out.setNull();
            return;
        case ColumnType::Decimal:
            throw Error("old DECIMAL (" + typeName(column) +
                        ", MySQL 4.1 and earlier) carries too little metadata to decode");
        case ColumnType::TypedArray:
            throw Error("typed array (" + typeName(column) + ") values are not logged in rows events");
    }
    throw Error("unknown " + typeName(column) + " in the table map");
}

ColumnValue decodeColumnValue(const ColumnDef& column, ByteReader& reader) {
    ColumnValue value;
    decodeColumnValueInto(column, reader, value);
    return value;
}

}  // namespace syncscope::binlog
