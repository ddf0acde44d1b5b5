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

constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// `digits` digits of v (v < 10^digits), zero-padded, two at a time.
void writePadded(char* out, uint32_t v, unsigned digits) {
    constexpr uint32_t kHundred = 100;
    unsigned i = digits;
    while (i >= 2) {
        const uint32_t pair = v % kHundred;
        v /= kHundred;
        i -= 2;
        out[i] = kDigitPairs[2 * pair];
        out[i + 1] = kDigitPairs[2 * pair + 1];
    }
    if (i == 1) {
        out[0] = static_cast<char>('0' + v);
    }
}

[[noreturn, gnu::cold, gnu::noinline]] void throwBadGroup(unsigned precision, unsigned scale, uint32_t v,
                                                          unsigned groupDigits) {
    throw Error("DECIMAL(" + std::to_string(precision) + "," + std::to_string(scale) + ") group value " +
                std::to_string(v) + " has more than " + std::to_string(groupDigits) + " digits");
}

}  // namespace

size_t decimalBinarySize(unsigned precision, unsigned scale) {
    checkPrecision(precision, scale);
    unsigned intDigits = precision - scale;
    return (intDigits / kDigitsPerGroup) * kGroupBytes + kBytesForDigits[intDigits % kDigitsPerGroup] +
           (scale / kDigitsPerGroup) * kGroupBytes + kBytesForDigits[scale % kDigitsPerGroup];
}

std::string_view readDecimalText(ByteReader& reader, unsigned precision, unsigned scale, DecimalText& out) {
    const size_t size = decimalBinarySize(precision, scale);
    const std::string_view raw = reader.bytes(size, "DECIMAL");
    // Negative values are stored complemented: undo that while copying.
    const bool negative = (static_cast<uint8_t>(raw[0]) & kSignBit) == 0;
    const uint8_t complement = negative ? 0xFF : 0x00;
    std::array<uint8_t, kMaxBinarySize> buf;
    buf[0] = static_cast<uint8_t>(static_cast<uint8_t>(raw[0]) ^ complement ^ kSignBit);  // size >= 1
    for (size_t i = 1; i < size; ++i) {
        buf[i] = static_cast<uint8_t>(static_cast<uint8_t>(raw[i]) ^ complement);
    }

    const unsigned intDigits = precision - scale;
    const unsigned leadDigits = intDigits % kDigitsPerGroup;
    const unsigned fullIntGroups = intDigits / kDigitsPerGroup;
    const unsigned fullFracGroups = scale / kDigitsPerGroup;
    const unsigned trailDigits = scale % kDigitsPerGroup;

    // The integer digits, leading zeros included ("0" when there are none), after room for the sign;
    // then the point and the fraction. The leading zeros are skipped by where the text starts.
    char* const digits = out.data() + 1;
    size_t written = 0;
    bool allZero = true;
    size_t pos = 0;
    auto group = [&](unsigned groupDigits, size_t bytes) {
        const uint32_t v = bigEndian(buf.data() + pos, bytes);
        pos += bytes;
        if (v >= kPowersOfTen[groupDigits]) [[unlikely]] {
            throwBadGroup(precision, scale, v, groupDigits);
        }
        allZero = allZero && v == 0;
        writePadded(digits + written, v, groupDigits);
        written += groupDigits;
    };
    if (leadDigits > 0) {
        group(leadDigits, kBytesForDigits[leadDigits]);
    }
    for (unsigned i = 0; i < fullIntGroups; ++i) {
        group(kDigitsPerGroup, kGroupBytes);
    }
    if (written == 0) {
        digits[written++] = '0';
    }
    const size_t intEnd = written;
    if (scale > 0) {
        digits[written++] = '.';
    }
    for (unsigned i = 0; i < fullFracGroups; ++i) {
        group(kDigitsPerGroup, kGroupBytes);
    }
    if (trailDigits > 0) {
        group(trailDigits, kBytesForDigits[trailDigits]);
    }

    size_t first = 0;
    while (first + 1 < intEnd && digits[first] == '0') {
        ++first;
    }
    char* begin = digits + first;
    if (negative && !allZero) {
        *--begin = '-';
    }
    return {begin, static_cast<size_t>(digits + written - begin)};
}

void readDecimalText(ByteReader& reader, unsigned precision, unsigned scale, std::string& out) {
    DecimalText buffer;
    out += readDecimalText(reader, precision, scale, buffer);
}

}  // namespace syncscope::binlog
