// DECIMAL (NEWDECIMAL) in MySQL's binary form: groups of 9 decimal digits in 4 big-endian bytes, a
// shorter leading and trailing group, the sign in the top bit, negatives stored complemented.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/binlog/byte_reader.h"

namespace syncscope::binlog {

inline constexpr unsigned kMaxDecimalPrecision = 65;
inline constexpr unsigned kMaxDecimalScale = 38;  // MariaDB allows 38, MySQL 30

// Bytes a DECIMAL(precision, scale) value takes; throws syncscope::Error for an impossible precision
// or scale (0 or over 65 digits, scale over precision or over 38).
size_t decimalBinarySize(unsigned precision, unsigned scale);

// Reads one value and appends its exact text with `scale` fraction digits ("-12.50", "0.000").
void readDecimalText(ByteReader& reader, unsigned precision, unsigned scale, std::string& out);

}  // namespace syncscope::binlog
