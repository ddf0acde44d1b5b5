// One binlog event as it came from a file or a server: its bytes (common header, body and, when the
// stream has checksums, the 4-byte CRC32) and where it starts.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace syncscope::binlog {

inline constexpr size_t kEventHeaderSize = 19;  // v4 common header
inline constexpr size_t kChecksumSize = 4;      // CRC32 trailer when binlog_checksum=CRC32

struct RawEvent {
    std::string_view bytes;  // valid until the source reads the next event
    std::string_view file;   // binlog file name (no directory), e.g. "mariadb-bin.000003"; owned by the source
    uint64_t pos = 0;        // offset of the event's first byte in that file
};

}  // namespace syncscope::binlog
