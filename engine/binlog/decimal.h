// DECIMAL (NEWDECIMAL) in MySQL's binary form: groups of 9 decimal digits in 4 big-endian bytes, a
// shorter leading and trailing group, the sign in the top bit, negatives stored complemented.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/binlog/byte_reader.h"

namespace syncscope::binlog {

inline constexpr unsigned kMaxDecimalPrecision = 65;
inline constexpr unsigned kMaxDecimalScale = 38;  // MariaDB allows 38, MySQL 30

// Bytes a DECIMAL(precision, scale) value takes; throws syncscope::Error for an impossible precision
// or scale (0 or over 65 digits, scale over precision or over 38).
size_t decimalBinarySize(unsigned precision, unsigned scale);

// Room for the longest text: a sign, 65 digits, a point and a leading "0" when there are no integer digits.
inline constexpr size_t kMaxDecimalTextSize = kMaxDecimalPrecision + 3;
using DecimalText = std::array<char, kMaxDecimalTextSize + 1>;

// Reads one value and appends its exact text with `scale` fraction digits ("-12.50", "0.000").
void readDecimalText(ByteReader& reader, unsigned precision, unsigned scale, std::string& out);
// The same into a fixed buffer, without allocating; returns the text, a view into `buffer`.
std::string_view readDecimalText(ByteReader& reader, unsigned precision, unsigned scale, DecimalText& buffer);

}  // namespace syncscope::binlog
