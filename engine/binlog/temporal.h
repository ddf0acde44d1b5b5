// DATE, TIME, DATETIME, TIMESTAMP and YEAR: how rows events store them (the old formats and the
// MySQL 5.6 "2" formats with fractional seconds) and how MariaDB prints them.
#pragma once

#include <cstdint>
#include <string>

#include "engine/binlog/byte_reader.h"
#include "engine/binlog/column_value.h"

namespace syncscope::binlog {

inline constexpr uint8_t kMaxFsp = 6;

// Readers of one value each; they move `reader` past it. fsp is the column's metadata (0..6); a larger
// fsp is inconsistent metadata and throws syncscope::Error.
TemporalValue readDate(ByteReader& reader);         // DATE / NEWDATE, 3 bytes
TemporalValue readOldTime(ByteReader& reader);      // TIME, 3 bytes, HHMMSS
TemporalValue readOldDateTime(ByteReader& reader);  // DATETIME, 8 bytes, YYYYMMDDhhmmss
TemporalValue readTime2(ByteReader& reader, uint8_t fsp);
TemporalValue readDateTime2(ByteReader& reader, uint8_t fsp);
TimestampValue readTimestamp2(ByteReader& reader, uint8_t fsp);

// The fields of MySQL's packed 8-byte TIME and DATETIME (as JSON opaque values carry them).
TemporalValue timeFromPacked(int64_t packed);
TemporalValue dateTimeFromPacked(int64_t packed);

// UTC calendar fields of a TIMESTAMP.
TemporalValue utcFromTimestamp(const TimestampValue& value);

// MariaDB's text: 'YYYY-MM-DD', '[-]HH:MM:SS[.ffffff]', 'YYYY-MM-DD HH:MM:SS[.ffffff]' with fsp digits.
void appendDate(std::string& out, const TemporalValue& value);
void appendTime(std::string& out, const TemporalValue& value);
void appendDateTime(std::string& out, const TemporalValue& value);
void appendFraction(std::string& out, uint32_t microsecond, uint8_t fsp);

}  // namespace syncscope::binlog
