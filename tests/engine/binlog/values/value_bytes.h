// Builders of row-image bytes for the value tests: little- and big-endian integers and the binary
// forms of DECIMAL and the temporal2 types, written from MySQL's own storage rules.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "engine/binlog/column_def.h"

namespace syncscope::binlog::testbytes {

inline std::string le(uint64_t v, size_t n) {
    std::string out;
    for (size_t i = 0; i < n; ++i) {
        out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
    }
    return out;
}

inline std::string be(uint64_t v, size_t n) {
    std::string out;
    for (size_t i = n; i > 0; --i) {
        out.push_back(static_cast<char>((v >> (8 * (i - 1))) & 0xFF));
    }
    return out;
}

inline std::string floatBytes(float f) {
    uint32_t raw;
    std::memcpy(&raw, &f, sizeof(raw));
    return le(raw, 4);
}

inline std::string doubleBytes(double d) {
    uint64_t raw;
    std::memcpy(&raw, &d, sizeof(raw));
    return le(raw, 8);
}

// DECIMAL(precision, scale) of "[-]digits[.digits]" as decimal2bin writes it.
inline std::string decimalBytes(const std::string& text, unsigned precision, unsigned scale) {
    static const unsigned kBytes[] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};
    bool negative = !text.empty() && text[0] == '-';
    std::string body = negative ? text.substr(1) : text;
    size_t dot = body.find('.');
    std::string intPart = dot == std::string::npos ? body : body.substr(0, dot);
    std::string fracPart = dot == std::string::npos ? std::string() : body.substr(dot + 1);
    unsigned intDigits = precision - scale;
    intPart.erase(
        0, intPart.find_first_not_of('0') == std::string::npos ? intPart.size() : intPart.find_first_not_of('0'));
    intPart = std::string(intDigits - intPart.size(), '0') + intPart;
    fracPart += std::string(scale - fracPart.size(), '0');
    std::string out;
    size_t lead = intDigits % 9;
    if (lead > 0) {
        out += be(std::stoul(intPart.substr(0, lead)), kBytes[lead]);
    }
    for (size_t i = lead; i < intDigits; i += 9) {
        out += be(std::stoul(intPart.substr(i, 9)), 4);
    }
    size_t i = 0;
    for (; i + 9 <= scale; i += 9) {
        out += be(std::stoul(fracPart.substr(i, 9)), 4);
    }
    if (scale % 9 > 0) {
        out += be(std::stoul(fracPart.substr(i)), kBytes[scale % 9]);
    }
    if (negative) {
        for (char& c : out) {
            c = static_cast<char>(~c);
        }
    }
    out[0] = static_cast<char>(out[0] ^ 0x80);
    return out;
}

// MySQL's packed TIME: (hour << 12 | minute << 6 | second) << 24 | microseconds, negated when negative.
inline int64_t packedTime(bool negative, unsigned h, unsigned m, unsigned s, unsigned micro) {
    int64_t v = ((static_cast<int64_t>(h) << 12 | m << 6 | s) << 24) + micro;
    return negative ? -v : v;
}

// my_time_packed_to_binary.
inline std::string time2Bytes(int64_t packed, unsigned fsp) {
    const int64_t intPart = packed >> 24;  // arithmetic shift, as MY_PACKED_TIME_GET_INT_PART
    const int64_t frac = packed % (int64_t{1} << 24);
    switch (fsp) {
        case 0:
            return be(static_cast<uint64_t>(0x800000 + intPart), 3);
        case 1:
        case 2:
            return be(static_cast<uint64_t>(0x800000 + intPart), 3) +
                   std::string(1, static_cast<char>(static_cast<int8_t>(frac / 10000)));
        case 3:
        case 4:
            return be(static_cast<uint64_t>(0x800000 + intPart), 3) +
                   be(static_cast<uint16_t>(static_cast<int16_t>(frac / 100)), 2);
        default:
            return be(static_cast<uint64_t>(packed + 0x800000000000LL), 6);
    }
}

inline std::string fractionBytes(unsigned micro, unsigned fsp) {
    if (fsp == 0) {
        return {};
    }
    if (fsp <= 2) {
        return be(micro / 10000, 1);
    }
    if (fsp <= 4) {
        return be(micro / 100, 2);
    }
    return be(micro, 3);
}

inline std::string dateTime2Bytes(unsigned y, unsigned mo, unsigned d, unsigned h, unsigned mi, unsigned s,
                                  unsigned micro, unsigned fsp) {
    uint64_t ymd = ((static_cast<uint64_t>(y) * 13 + mo) << 5) | d;
    uint64_t hms = (h << 12) | (mi << 6) | s;
    return be((ymd << 17 | hms) + 0x8000000000ULL, 5) + fractionBytes(micro, fsp);
}

inline ColumnDef column(ColumnType type, uint16_t meta = 0, bool isUnsigned = false, bool isBinary = false) {
    ColumnDef c;
    c.type = type;
    c.meta = meta;
    c.isUnsigned = isUnsigned;
    c.isBinary = isBinary;
    return c;
}

}  // namespace syncscope::binlog::testbytes
