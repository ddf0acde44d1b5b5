// The few fields a binlog source reads from raw event bytes before (and without) the full decoder:
// the v4 common header, the checksum algorithm of a FORMAT_DESCRIPTION and the target of a ROTATE.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace syncscope::source {

inline constexpr uint8_t kRotateEventType = 4;
inline constexpr uint8_t kFormatDescriptionEventType = 15;
inline constexpr uint8_t kXidEventType = 16;
inline constexpr uint8_t kQueryEventType = 2;
inline constexpr uint8_t kStopEventType = 3;
inline constexpr uint8_t kHeartbeatEventType = 27;
inline constexpr uint8_t kHeartbeatV2EventType = 41;
inline constexpr uint8_t kMariaDbGtidEventType = 162;
inline constexpr uint16_t kArtificialEventFlag = 0x0020;  // LOG_EVENT_ARTIFICIAL_F: not in the file

struct RawEventHeader {
    uint32_t timestamp = 0;
    uint8_t type = 0;
    uint32_t serverId = 0;
    uint32_t eventSize = 0;
    uint32_t logPos = 0;  // end position in the server's file; 0 for artificial events
    uint16_t flags = 0;
};

// The 19-byte common header; `bytes` must hold at least that many.
RawEventHeader readRawEventHeader(std::string_view bytes);

// Whether events after this FORMAT_DESCRIPTION carry a CRC32 trailer. Servers older than MySQL 5.6.1
// (MariaDB 5.3) have no checksum byte at all. Throws TruncatedError for a too-short event.
bool formatDescriptionHasChecksum(std::string_view formatDescriptionBytes);

struct RotateTarget {
    uint64_t position = 0;
    std::string file;
};

// The next file and position of a ROTATE event. Throws TruncatedError for a too-short event.
RotateTarget readRotateTarget(std::string_view rotateBytes, bool hasChecksum);

// The server's query text of a QUERY event (to tell BEGIN from COMMIT and DDL); empty when the
// event is too short to hold one.
std::string_view readQueryText(std::string_view queryBytes, bool hasChecksum);

}  // namespace syncscope::source
