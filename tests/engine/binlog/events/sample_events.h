// Hand-built rows-related events for the decoder's tests: a TABLE_MAP with every optional metadata
// field, rows events of each version, compressed and partial-JSON variants and a transaction payload.
#pragma once

#include <zstd.h>

#include <string>
#include <vector>

#include "tests/engine/binlog/events/event_bytes.h"

namespace syncscope::test {

inline constexpr uint64_t kSampleTableId = 0x010203040506ULL & 0xFFFFFFFFFFFFULL;

// shop.items: id INT PRIMARY KEY, name VARCHAR(20) utf8mb4, qty TINYINT UNSIGNED, size ENUM('s','m'),
// photo BLOB (binary), spot POINT, price DOUBLE, doc JSON; "doc" is invisible.
inline std::string itemsTableMapBody() {
    using binlog::ColumnType;
    Bytes b;
    b.u48(kSampleTableId).u16(1).u8(4).str("shop").u8(0).u8(5).str("items").u8(0);
    const std::vector<uint8_t> types = {3, 15, 1, 254, 252, 255, 5, 245};
    b.packed(types.size());
    for (uint8_t t : types) {
        b.u8(t);
    }
    Bytes meta;
    meta.u16(80);        // VARCHAR(20) utf8mb4: 80 bytes, little-endian
    meta.u8(247).u8(1);  // STRING carrying ENUM, pack length 1 (big-endian order)
    meta.u8(2);          // BLOB pack length
    meta.u8(4);          // GEOMETRY pack length
    meta.u8(8);          // DOUBLE
    meta.u8(4);          // JSON pack length
    b.packedStr(meta.data());
    b.u8(0xFE);  // null bitmap: all but id nullable
    auto field = [&b](uint8_t type, const std::string& value) { b.u8(type).packedStr(value); };
    field(1, Bytes().u8(0x40));  // signedness, numeric columns id, qty, price: qty unsigned (MSB first)
    field(2, Bytes().packed(45).packed(1).packed(63));  // default utf8mb4_general_ci, photo binary
    Bytes names;
    for (const char* n : {"id", "name", "qty", "size", "photo", "spot", "price", "doc"}) {
        names.packedStr(n);
    }
    field(4, names);
    field(6, Bytes().packed(2).packedStr("s").packedStr("m"));  // enum strings
    field(7, Bytes().packed(1));                                // POINT
    field(8, Bytes().packed(0));                                // primary key (id)
    field(10, Bytes().packed(8));                               // enum/set default charset latin1
    field(12, Bytes().u8(0xFE));                                // visibility: doc (column 8) hidden
    field(200, "later");                                        // unknown metadata: skipped
    return b;
}

// t3: a INT, b VARCHAR(10) latin1, c TINYINT; table id 7, no optional metadata.
inline std::string smallTableMapBody(uint64_t tableId = 7) {
    Bytes b;
    b.u48(tableId).u16(1).u8(2).str("db").u8(0).u8(2).str("t3").u8(0).packed(3).u8(3).u8(15).u8(1);
    b.packedStr(Bytes().u16(10)).u8(0x06);
    return b;
}

inline std::string smallRowImage(int32_t a, const std::string& bText, bool cNull, uint8_t c) {
    Bytes row;
    row.u8(cNull ? 0x04 : 0x00).u32(static_cast<uint32_t>(a)).u8(bText.size()).str(bText);
    if (!cNull) {
        row.u8(c);
    }
    return row;
}

// Rows post-header + body for t3. version 2 adds the extra-data header.
inline std::string smallRowsBody(int version, bool update, const std::string& rows, uint64_t tableId = 7) {
    Bytes b;
    b.u48(tableId).u16(1);
    if (version == 2) {
        b.u16(2 + 3).u8(0).u8(1).u8(9);  // extra data: 3 bytes
    }
    b.packed(3).u8(0x07);
    if (update) {
        b.u8(0x07);
    }
    return b.data() + rows;
}

inline std::string zstdCompress(const std::string& plain) {
    std::string out(ZSTD_compressBound(plain.size()), '\0');
    out.resize(ZSTD_compress(out.data(), out.size(), plain.data(), plain.size(), 3));
    return out;
}

// A MySQL 8 transaction payload holding BEGIN, the t3 table map, one insert and the XID.
inline std::string payloadBody(std::string* innerOut = nullptr) {
    Bytes query;
    query.u32(1).u32(0).u8(2).u16(0).u16(0).str("db").u8(0).str("BEGIN");
    std::string inner = makeEvent(binlog::EventType::Query, query, false, 0);
    inner += makeEvent(binlog::EventType::TableMap, smallTableMapBody(), false, 0);
    inner +=
        makeEvent(binlog::EventType::WriteRowsV2, smallRowsBody(2, false, smallRowImage(1, "x", false, 2)), false, 0);
    inner += makeEvent(binlog::EventType::Xid, Bytes().u64(55), false, 0);
    if (innerOut != nullptr) {
        *innerOut = inner;
    }
    const std::string compressed = zstdCompress(inner);
    Bytes b;
    b.u8(1).packedStr(Bytes().packed(compressed.size()));  // payload size
    b.u8(2).packedStr(Bytes().packed(0));                  // zstd
    b.u8(3).packedStr(Bytes().packed(inner.size()));       // uncompressed size
    b.u8(0).str(compressed);
    return b;
}

}  // namespace syncscope::test
