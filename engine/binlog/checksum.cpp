#include "engine/binlog/checksum.h"

#include <zlib.h>

#include <array>
#include <charconv>

namespace syncscope::binlog {

uint32_t binlogCrc32(std::string_view bytes) {
    // zlib takes uInt lengths; feed in chunks so that any event size works.
    constexpr size_t kChunk = 1U << 30;
    uLong crc = crc32(0L, Z_NULL, 0);
    const auto* data = reinterpret_cast<const Bytef*>(bytes.data());
    size_t left = bytes.size();
    while (left > 0) {
        const size_t n = left < kChunk ? left : kChunk;
        crc = crc32(crc, data, static_cast<uInt>(n));
        data += n;
        left -= n;
    }
    return static_cast<uint32_t>(crc);
}

bool serverWritesChecksumAlgorithm(std::string_view serverVersion) {
    // "5.6.1-...", "10.11.6-MariaDB-log": the leading major.minor.patch numbers.
    std::array<unsigned, 3> parts{0, 0, 0};
    const char* cur = serverVersion.data();
    const char* end = serverVersion.data() + serverVersion.size();
    for (size_t i = 0; i < parts.size() && cur < end; ++i) {
        auto [next, ec] = std::from_chars(cur, end, parts[i]);
        if (ec != std::errc()) {
            break;
        }
        cur = next;
        if (cur < end && *cur == '.') {
            ++cur;
        } else {
            break;
        }
    }
    const bool mariaDb = serverVersion.find("MariaDB") != std::string_view::npos;
    constexpr std::array<unsigned, 3> kMySqlFirst{5, 6, 1};
    constexpr std::array<unsigned, 3> kMariaDbFirst{5, 3, 0};
    return parts >= (mariaDb ? kMariaDbFirst : kMySqlFirst);
}

}  // namespace syncscope::binlog
