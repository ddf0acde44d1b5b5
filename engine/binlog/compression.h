// Decompression of compressed binlog payloads: MariaDB's compressed QUERY and rows events (zlib, with
// MariaDB's one-byte header and big-endian length) and MySQL's TRANSACTION_PAYLOAD (zstd).
// Output grows with the data actually inflated, never with a length the input claims, so a lying
// header cannot make us allocate gigabytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace syncscope::binlog {

// The largest decompressed payload accepted: the server cannot send more in one event
// (max_allowed_packet is at most 1 GiB).
inline constexpr uint64_t kMaxDecompressedSize = 1ULL << 30;

// MariaDB's format: byte 0 = 0x80 | algorithm << 4 | n, then n (1..4) bytes of the uncompressed length,
// big-endian, then the zlib stream. Replaces `out`. Throws TruncatedError with `what` when the data is
// not in that format, does not inflate, or its size is not the one the header gives.
void inflateMariaDbCompressed(std::string_view in, std::string& out, const char* what);

// A zstd frame; `expectedSize` (from the payload header) must match. Replaces `out`.
void decompressZstd(std::string_view in, uint64_t expectedSize, std::string& out, const char* what);

}  // namespace syncscope::binlog
