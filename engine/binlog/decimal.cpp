#include "engine/binlog/decimal.h"

#include <array>

#include "engine/common/error.h"

namespace syncscope::binlog {

namespace {

constexpr unsigned kDigitsPerGroup = 9;
constexpr size_t kGroupBytes = 4;
// Bytes for a group of 0..9 leading or trailing digits.
constexpr std::array<uint8_t, kDigitsPerGroup + 1> kBytesForDigits = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};
constexpr std::array<uint32_t, kDigitsPerGroup + 1> kPowersOfTen = {1,      10,      100,      1000,      10000,
                                                                    100000, 1000000, 10000000, 100000000, 1000000000};
constexpr uint8_t kSignBit = 0x80;
constexpr size_t kMaxBinarySize = 32;  // 65 digits take at most 30 bytes

void checkPrecision(unsigned precision, unsigned scale) {
    if (precision == 0 || precision > kMaxDecimalPrecision || scale > precision || scale > kMaxDecimalScale) {
        throw Error("DECIMAL(" + std::to_string(precision) + "," + std::to_string(scale) +
                    ") in the table map is impossible (precision 1..65, scale 0..38 and at most the precision)");
    }
}

uint32_t bigEndian(const uint8_t* p, size_t n) {
    uint32_t v = 0;
    for (size_t i = 0; i < n; ++i) {
        v = (v << 8) | p[i];
    }
    return v;
}

void appendPadded(std::string& out, uint32_t v, unsigned digits) {
    char buf[kDigitsPerGroup];
    for (unsigned i = digits; i > 0; --i) {
        buf[i - 1] = static_cast<char>('0' + v % 10);
        v /= 10;
    }
    out.append(buf, digits);
}

}  // namespace

size_t decimalBinarySize(unsigned precision, unsigned scale) {
    checkPrecision(precision, scale);
    unsigned intDigits = precision - scale;
    return (intDigits / kDigitsPerGroup) * kGroupBytes + kBytesForDigits[intDigits % kDigitsPerGroup] +
           (scale / kDigitsPerGroup) * kGroupBytes + kBytesForDigits[scale % kDigitsPerGroup];
}

void readDecimalText(ByteReader& reader, unsigned precision, unsigned scale, std::string& out) {
    const size_t size = decimalBinarySize(precision, scale);
    std::string_view raw = reader.bytes(size, "DECIMAL");
    std::array<uint8_t, kMaxBinarySize> buf{};
    for (size_t i = 0; i < size; ++i) {
        buf[i] = static_cast<uint8_t>(raw[i]);
    }
    const bool negative = (buf[0] & kSignBit) == 0;
    buf[0] ^= kSignBit;
    if (negative) {
        for (size_t i = 0; i < size; ++i) {
            buf[i] = static_cast<uint8_t>(~buf[i]);
        }
    }

    const unsigned intDigits = precision - scale;
    const unsigned leadDigits = intDigits % kDigitsPerGroup;
    const unsigned fullIntGroups = intDigits / kDigitsPerGroup;
    const unsigned fullFracGroups = scale / kDigitsPerGroup;
    const unsigned trailDigits = scale % kDigitsPerGroup;

    std::string digits;  // integer digits, leading zeros included
    digits.reserve(intDigits);
    size_t pos = 0;
    auto group = [&](unsigned groupDigits, size_t bytes, std::string& into) {
        uint32_t v = bigEndian(buf.data() + pos, bytes);
        pos += bytes;
        if (v >= kPowersOfTen[groupDigits]) {
            throw Error("DECIMAL(" + std::to_string(precision) + "," + std::to_string(scale) + ") group value " +
                        std::to_string(v) + " has more than " + std::to_string(groupDigits) + " digits");
        }
        appendPadded(into, v, groupDigits);
    };
    if (leadDigits > 0) {
        group(leadDigits, kBytesForDigits[leadDigits], digits);
    }
    for (unsigned i = 0; i < fullIntGroups; ++i) {
        group(kDigitsPerGroup, kGroupBytes, digits);
    }
    std::string fraction;
    fraction.reserve(scale);
    for (unsigned i = 0; i < fullFracGroups; ++i) {
        group(kDigitsPerGroup, kGroupBytes, fraction);
    }
    if (trailDigits > 0) {
        group(trailDigits, kBytesForDigits[trailDigits], fraction);
    }

    size_t firstNonZero = digits.find_first_not_of('0');
    bool isZero = firstNonZero == std::string::npos && fraction.find_first_not_of('0') == std::string::npos;
    if (negative && !isZero) {
        out.push_back('-');
    }
    if (firstNonZero == std::string::npos) {
        out.push_back('0');
    } else {
        out.append(digits, firstNonZero, std::string::npos);
    }
    if (scale > 0) {
        out.push_back('.');
        out += fraction;
    }
}

}  // namespace syncscope::binlog
