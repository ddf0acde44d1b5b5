#include "engine/binlog/temporal.h"

#include <array>

#include "engine/common/error.h"

namespace syncscope::binlog {

namespace {

// Offsets that make the big-endian TIME2/DATETIME2 integer parts sort as unsigned bytes.
constexpr int64_t kTime2IntOffset = 0x800000;
constexpr int64_t kTime2Offset = 0x800000000000LL;  // TIME2 with fsp 5-6: 6 bytes in one piece
constexpr int64_t kDateTime2IntOffset = 0x8000000000LL;
constexpr int kPackedFracBits = 24;  // packed TIME/DATETIME: integer part << 24 | microseconds
constexpr int64_t kPackedFracMask = (int64_t{1} << kPackedFracBits) - 1;
constexpr int kHmsBits = 17;  // DATETIME2: hour 5, minute 6, second 6 bits
constexpr int64_t kSecondsPerDay = 86400;
constexpr uint32_t kMicrosPerSecond = 1000000;

void checkFsp(uint8_t fsp, const char* type) {
    if (fsp > kMaxFsp) {
        throw Error(std::string(type) + " with fractional-second precision " + std::to_string(fsp) +
                    " in the table map (at most 6)");
    }
}

// The fractional part after TIME2/DATETIME2/TIMESTAMP2's integer part: (fsp + 1) / 2 bytes,
// big-endian, in units of 1/100, 1/10000 or 1/1000000 s. Signed for the TIME2 rules below.
int32_t readFraction(ByteReader& reader, uint8_t fsp, const char* what) {
    switch (fsp) {
        case 1:
        case 2:
            return static_cast<int32_t>(reader.uintBigEndian(1, what)) * 10000;
        case 3:
        case 4:
            return static_cast<int32_t>(reader.uintBigEndian(2, what)) * 100;
        case 5:
        case 6:
            return static_cast<int32_t>(reader.uintBigEndian(3, what));
        default:
            return 0;
    }
}

void append2(std::string& out, unsigned v) {
    out.push_back(static_cast<char>('0' + (v / 10) % 10));
    out.push_back(static_cast<char>('0' + v % 10));
}

void append4(std::string& out, unsigned v) {
    append2(out, (v / 100) % 100);
    append2(out, v % 100);
}

}  // namespace

TemporalValue readDate(ByteReader& reader) {
    uint32_t v = reader.u24("DATE");
    TemporalValue t;
    t.day = static_cast<uint8_t>(v & 0x1F);
    t.month = static_cast<uint8_t>((v >> 5) & 0x0F);
    t.year = static_cast<uint16_t>(v >> 9);
    return t;
}

TemporalValue readOldTime(ByteReader& reader) {
    uint32_t raw = reader.u24("TIME");
    int32_t v = (raw & 0x800000) ? static_cast<int32_t>(raw | 0xFF000000u) : static_cast<int32_t>(raw);
    TemporalValue t;
    t.negative = v < 0;
    uint32_t a = static_cast<uint32_t>(v < 0 ? -static_cast<int64_t>(v) : v);
    t.hour = static_cast<uint16_t>(a / 10000);
    t.minute = static_cast<uint8_t>((a / 100) % 100);
    t.second = static_cast<uint8_t>(a % 100);
    return t;
}

TemporalValue readOldDateTime(ByteReader& reader) {
    uint64_t v = reader.u64("DATETIME");
    uint64_t date = v / 1000000;
    uint64_t time = v % 1000000;
    TemporalValue t;
    t.year = static_cast<uint16_t>(date / 10000);
    t.month = static_cast<uint8_t>((date / 100) % 100);
    t.day = static_cast<uint8_t>(date % 100);
    t.hour = static_cast<uint16_t>(time / 10000);
    t.minute = static_cast<uint8_t>((time / 100) % 100);
    t.second = static_cast<uint8_t>(time % 100);
    return t;
}

TemporalValue timeFromPacked(int64_t packed) {
    TemporalValue t;
    t.negative = packed < 0;
    uint64_t v = packed < 0 ? 0 - static_cast<uint64_t>(packed) : static_cast<uint64_t>(packed);  // INT64_MIN safe
    uint64_t hms = v >> kPackedFracBits;
    t.microsecond = static_cast<uint32_t>(v & kPackedFracMask);
    t.hour = static_cast<uint16_t>((hms >> 12) % (1 << 10));
    t.minute = static_cast<uint8_t>((hms >> 6) % (1 << 6));
    t.second = static_cast<uint8_t>(hms % (1 << 6));
    return t;
}

TemporalValue dateTimeFromPacked(int64_t packed) {
    TemporalValue t;
    t.negative = packed < 0;
    uint64_t v = packed < 0 ? 0 - static_cast<uint64_t>(packed) : static_cast<uint64_t>(packed);  // INT64_MIN safe
    t.microsecond = static_cast<uint32_t>(v & kPackedFracMask);
    uint64_t ymdhms = v >> kPackedFracBits;
    uint64_t ymd = ymdhms >> kHmsBits;
    uint64_t ym = ymd >> 5;
    uint64_t hms = ymdhms % (1 << kHmsBits);
    t.day = static_cast<uint8_t>(ymd % (1 << 5));
    t.month = static_cast<uint8_t>(ym % 13);
    t.year = static_cast<uint16_t>(ym / 13);
    t.second = static_cast<uint8_t>(hms % (1 << 6));
    t.minute = static_cast<uint8_t>((hms >> 6) % (1 << 6));
    t.hour = static_cast<uint16_t>(hms >> 12);
    return t;
}

TemporalValue readTime2(ByteReader& reader, uint8_t fsp) {
    checkFsp(fsp, "TIME2");
    int64_t packed = 0;
    switch (fsp) {
        case 0:
        case 1:
        case 2:
        case 3:
        case 4: {
            int64_t intPart = static_cast<int64_t>(reader.uintBigEndian(3, "TIME2")) - kTime2IntOffset;
            int32_t frac = 0;
            if (fsp > 0) {
                // Unscaled fraction: a negative time stores its fraction complemented so that bytes sort.
                const size_t fracBytes = fsp <= 2 ? 1 : 2;
                int32_t raw = static_cast<int32_t>(reader.uintBigEndian(fracBytes, "TIME2 fraction"));
                if (intPart < 0 && raw != 0) {
                    ++intPart;
                    raw -= fracBytes == 1 ? 0x100 : 0x10000;
                }
                frac = raw * (fracBytes == 1 ? 10000 : 100);
            }
            packed = intPart * (int64_t{1} << kPackedFracBits) + frac;
            break;
        }
        default:
            packed = static_cast<int64_t>(reader.uintBigEndian(6, "TIME2")) - kTime2Offset;
            break;
    }
    TemporalValue t = timeFromPacked(packed);
    t.fsp = fsp;
    return t;
}

TemporalValue readDateTime2(ByteReader& reader, uint8_t fsp) {
    checkFsp(fsp, "DATETIME2");
    int64_t intPart = static_cast<int64_t>(reader.uintBigEndian(5, "DATETIME2")) - kDateTime2IntOffset;
    int32_t frac = readFraction(reader, fsp, "DATETIME2 fraction");
    TemporalValue t = dateTimeFromPacked(intPart * (int64_t{1} << kPackedFracBits) + frac);
    t.fsp = fsp;
    return t;
}

TimestampValue readTimestamp2(ByteReader& reader, uint8_t fsp) {
    checkFsp(fsp, "TIMESTAMP2");
    TimestampValue ts;
    ts.seconds = static_cast<int64_t>(reader.uintBigEndian(4, "TIMESTAMP2"));
    int32_t frac = readFraction(reader, fsp, "TIMESTAMP2 fraction");
    if (frac < 0 || static_cast<uint32_t>(frac) >= kMicrosPerSecond) {
        throw Error("TIMESTAMP2 fraction " + std::to_string(frac) + " is not a number of microseconds");
    }
    ts.microsecond = static_cast<uint32_t>(frac);
    ts.fsp = fsp;
    return ts;
}

TemporalValue utcFromTimestamp(const TimestampValue& value) {
    TemporalValue t;
    t.fsp = value.fsp;
    t.microsecond = value.microsecond;
    if (value.seconds == 0) {
        return t;  // the zero timestamp prints as 0000-00-00 00:00:00
    }
    int64_t days = value.seconds / kSecondsPerDay;
    int64_t secs = value.seconds % kSecondsPerDay;
    if (secs < 0) {
        secs += kSecondsPerDay;
        --days;
    }
    t.hour = static_cast<uint16_t>(secs / 3600);
    t.minute = static_cast<uint8_t>((secs / 60) % 60);
    t.second = static_cast<uint8_t>(secs % 60);
    // Civil date from days since 1970-01-01 (Howard Hinnant's days_from_civil inverse).
    int64_t z = days + 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t y = yoe + era * 400;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int64_t d = doy - (153 * mp + 2) / 5 + 1;
    int64_t m = mp < 10 ? mp + 3 : mp - 9;
    t.year = static_cast<uint16_t>(y + (m <= 2 ? 1 : 0));
    t.month = static_cast<uint8_t>(m);
    t.day = static_cast<uint8_t>(d);
    return t;
}

void appendFraction(std::string& out, uint32_t microsecond, uint8_t fsp) {
    if (fsp == 0) {
        return;
    }
    out.push_back('.');
    char digits[6];
    uint32_t v = microsecond % kMicrosPerSecond;
    for (int i = 5; i >= 0; --i) {
        digits[i] = static_cast<char>('0' + v % 10);
        v /= 10;
    }
    out.append(digits, fsp > kMaxFsp ? kMaxFsp : fsp);
}

void appendDate(std::string& out, const TemporalValue& value) {
    append4(out, value.year);
    out.push_back('-');
    append2(out, value.month);
    out.push_back('-');
    append2(out, value.day);
}

void appendTime(std::string& out, const TemporalValue& value) {
    if (value.negative) {
        out.push_back('-');
    }
    if (value.hour >= 100) {
        out += std::to_string(value.hour);
    } else {
        append2(out, value.hour);
    }
    out.push_back(':');
    append2(out, value.minute);
    out.push_back(':');
    append2(out, value.second);
    appendFraction(out, value.microsecond, value.fsp);
}

void appendDateTime(std::string& out, const TemporalValue& value) {
    appendDate(out, value);
    out.push_back(' ');
    append2(out, value.hour);
    out.push_back(':');
    append2(out, value.minute);
    out.push_back(':');
    append2(out, value.second);
    appendFraction(out, value.microsecond, value.fsp);
}

}  // namespace syncscope::binlog
