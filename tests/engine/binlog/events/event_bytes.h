// Builds binlog event bytes by hand for the decoder's unit tests: little-endian fields, packed
// integers, the v4 common header, FORMAT_DESCRIPTION bodies and the CRC32 trailer.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/binlog/checksum.h"
#include "engine/binlog/event_type.h"
#include "engine/binlog/raw_event.h"

namespace syncscope::test {

class Bytes {
public:
    Bytes& u8(uint64_t v) { return le(v, 1); }
    Bytes& u16(uint64_t v) { return le(v, 2); }
    Bytes& u24(uint64_t v) { return le(v, 3); }
    Bytes& u32(uint64_t v) { return le(v, 4); }
    Bytes& u48(uint64_t v) { return le(v, 6); }
    Bytes& u64(uint64_t v) { return le(v, 8); }
    Bytes& le(uint64_t v, size_t n) {
        for (size_t i = 0; i < n; ++i) {
            data_.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
        }
        return *this;
    }
    Bytes& be(uint64_t v, size_t n) {
        for (size_t i = n; i > 0; --i) {
            data_.push_back(static_cast<char>((v >> (8 * (i - 1))) & 0xFF));
        }
        return *this;
    }
    Bytes& packed(uint64_t v) {
        if (v < 0xFB) {
            return u8(v);
        }
        if (v <= 0xFFFF) {
            return u8(0xFC).u16(v);
        }
        if (v <= 0xFFFFFF) {
            return u8(0xFD).u24(v);
        }
        return u8(0xFE).u64(v);
    }
    Bytes& str(std::string_view s) {
        data_.append(s);
        return *this;
    }
    Bytes& packedStr(std::string_view s) { return packed(s.size()).str(s); }
    Bytes& zero(size_t n) {
        data_.append(n, '\0');
        return *this;
    }
    const std::string& data() const { return data_; }
    operator std::string() const { return data_; }       // NOLINT: builder convenience
    operator std::string_view() const { return data_; }  // NOLINT: builder convenience

private:
    std::string data_;
};

inline void appendCrc(std::string& event) {
    const uint32_t crc = binlog::binlogCrc32(event);
    for (size_t i = 0; i < 4; ++i) {
        event.push_back(static_cast<char>((crc >> (8 * i)) & 0xFF));
    }
}

// A whole event: common header + body (+ CRC32 when `crc`). event_size and log_pos are filled in.
inline std::string makeEvent(binlog::EventType type, std::string_view body, bool crc, uint64_t pos = 4,
                             uint16_t flags = 0, uint32_t serverId = 1, uint32_t timestamp = 1700000000) {
    const size_t size = binlog::kEventHeaderSize + body.size() + (crc ? binlog::kChecksumSize : 0);
    Bytes header;
    header.u32(timestamp).u8(static_cast<uint8_t>(type)).u32(serverId).u32(size).u32(pos + size).u16(flags);
    std::string event = header.data() + std::string(body);
    if (crc) {
        appendCrc(event);
    }
    return event;
}

// FORMAT_DESCRIPTION as a checksum-aware server writes it (algorithm byte + 4 checksum bytes).
inline std::string makeFormatDescription(std::string_view serverVersion, bool crc) {
    std::vector<uint8_t> lengths(171, 0);
    auto set = [&lengths](binlog::EventType type, uint8_t n) { lengths[static_cast<size_t>(type) - 1] = n; };
    set(binlog::EventType::Query, 13);
    set(binlog::EventType::QueryCompressed, 13);
    set(binlog::EventType::Rotate, 8);
    set(binlog::EventType::FormatDescription, 84);
    set(binlog::EventType::TableMap, 8);
    for (auto t : {binlog::EventType::WriteRowsV0, binlog::EventType::UpdateRowsV0, binlog::EventType::DeleteRowsV0,
                   binlog::EventType::WriteRowsV1, binlog::EventType::UpdateRowsV1, binlog::EventType::DeleteRowsV1,
                   binlog::EventType::WriteRowsCompressedV1, binlog::EventType::UpdateRowsCompressedV1,
                   binlog::EventType::DeleteRowsCompressedV1}) {
        set(t, 8);
    }
    for (auto t : {binlog::EventType::WriteRowsV2, binlog::EventType::UpdateRowsV2, binlog::EventType::DeleteRowsV2,
                   binlog::EventType::PartialUpdateRows}) {
        set(t, 10);
    }
    Bytes body;
    body.u16(4).str(serverVersion).zero(50 - serverVersion.size()).u32(1700000000).u8(19);
    for (uint8_t n : lengths) {
        body.u8(n);
    }
    body.u8(crc ? 1 : 0);
    std::string event = makeEvent(binlog::EventType::FormatDescription, body.data(), false, 4);
    // The FDE of a checksum-aware server always ends in 4 checksum bytes; event_size counts them.
    const uint32_t size = static_cast<uint32_t>(event.size() + 4);
    for (size_t i = 0; i < 4; ++i) {
        event[9 + i] = static_cast<char>((size >> (8 * i)) & 0xFF);
        event[13 + i] = static_cast<char>(((4 + size) >> (8 * i)) & 0xFF);
    }
    if (crc) {
        appendCrc(event);
    } else {
        event.append(4, '\0');
    }
    return event;
}

// MariaDB's compressed form: header byte 0x80 | n, n bytes of length big-endian, zlib stream.
inline std::string mariaDbCompress(std::string_view plain) {
    uLongf bound = compressBound(static_cast<uLong>(plain.size()));
    std::string z(bound, '\0');
    compress(reinterpret_cast<Bytef*>(z.data()), &bound, reinterpret_cast<const Bytef*>(plain.data()),
             static_cast<uLong>(plain.size()));
    z.resize(bound);
    Bytes out;
    out.u8(0x80 | 4).be(plain.size(), 4).str(z);
    return out;
}

}  // namespace syncscope::test
