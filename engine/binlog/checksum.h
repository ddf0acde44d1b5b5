// Binlog event checksums (binlog_checksum=CRC32): the zlib CRC32 of the event without its last 4 bytes.
#pragma once

#include <cstdint>
#include <string_view>

namespace syncscope::binlog {

uint32_t binlogCrc32(std::string_view bytes);

// Whether a server of this version writes the checksum algorithm byte (and a checksum) at the end of
// its FORMAT_DESCRIPTION event: MySQL 5.6.1 and later, MariaDB 5.3 and later.
bool serverWritesChecksumAlgorithm(std::string_view serverVersion);

}  // namespace syncscope::binlog
