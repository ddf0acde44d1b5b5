// FORMAT_DESCRIPTION: the binlog version, the server version, the header and post-header lengths and,
// from MySQL 5.6.1 / MariaDB 5.3 on, the checksum algorithm of every event that follows.
#include <algorithm>

#include "engine/binlog/checksum.h"
#include "engine/binlog/event_body_decoders.h"
#include "engine/binlog/raw_event.h"

namespace syncscope::binlog::detail {

namespace {

constexpr size_t kServerVersionLength = 50;
constexpr uint16_t kBinlogVersion4 = 4;
constexpr size_t kChecksumAlgorithmLength = 1;

// Default post-header lengths of a v4 binlog (MySQL 5.6 values), indexed by type code - 1.
constexpr uint8_t kQueryPostHeader = 13;
constexpr uint8_t kRotatePostHeader = 8;
constexpr uint8_t kFormatDescriptionPostHeader = 84;  // 2 + 50 + 4 + 1 + 27 types of MySQL 5.0
constexpr uint8_t kTableMapPostHeader = 8;
constexpr uint8_t kRowsV1PostHeader = 8;
constexpr uint8_t kRowsV2PostHeader = 10;
constexpr uint8_t kIncidentPostHeader = 2;
constexpr uint8_t kLastDefaultType = static_cast<uint8_t>(EventType::DeleteRowsCompressed);

}  // namespace

uint8_t postHeaderLength(const FormatDescriptionEvent& fde, EventType type, uint8_t fallback) {
    const auto code = static_cast<size_t>(type);
    if (code == 0 || code > fde.postHeaderLengths.size()) {
        return fallback;
    }
    return fde.postHeaderLengths[code - 1];
}

FormatDescriptionEvent defaultFormatDescription() {
    FormatDescriptionEvent fde;
    fde.binlogVersion = kBinlogVersion4;
    fde.headerLength = static_cast<uint8_t>(kEventHeaderSize);
    fde.postHeaderLengths.assign(kLastDefaultType, 0);
    auto set = [&fde](EventType type, uint8_t length) {
        fde.postHeaderLengths[static_cast<size_t>(type) - 1] = length;
    };
    set(EventType::Query, kQueryPostHeader);
    set(EventType::QueryCompressed, kQueryPostHeader);
    set(EventType::Rotate, kRotatePostHeader);
    set(EventType::FormatDescription, kFormatDescriptionPostHeader);
    set(EventType::TableMap, kTableMapPostHeader);
    for (EventType type :
         {EventType::WriteRowsV0, EventType::UpdateRowsV0, EventType::DeleteRowsV0, EventType::WriteRowsV1,
          EventType::UpdateRowsV1, EventType::DeleteRowsV1, EventType::WriteRowsCompressedV1,
          EventType::UpdateRowsCompressedV1, EventType::DeleteRowsCompressedV1}) {
        set(type, kRowsV1PostHeader);
    }
    for (EventType type :
         {EventType::WriteRowsV2, EventType::UpdateRowsV2, EventType::DeleteRowsV2, EventType::PartialUpdateRows,
          EventType::WriteRowsCompressed, EventType::UpdateRowsCompressed, EventType::DeleteRowsCompressed}) {
        set(type, kRowsV2PostHeader);
    }
    set(EventType::Incident, kIncidentPostHeader);
    return fde;
}

FormatDescriptionEvent decodeFormatDescription(ByteReader& body) {
    FormatDescriptionEvent fde;
    fde.binlogVersion = body.u16("binlog version");
    if (fde.binlogVersion != kBinlogVersion4) {
        throw EventFormatError("binlog version " + std::to_string(fde.binlogVersion) +
                               " is not supported (only v4, MySQL 5.0 and later)");
    }
    const std::string_view version = body.bytes(kServerVersionLength, "server version");
    fde.serverVersion.assign(version.substr(0, std::min(version.find('\0'), version.size())));
    fde.createTimestamp = body.u32("create timestamp");
    fde.headerLength = body.u8("common header length");
    if (fde.headerLength < kEventHeaderSize) {
        throw EventFormatError("common header length " + std::to_string(fde.headerLength) + " is under 19");
    }
    size_t typeCount = body.remaining();
    // The algorithm byte follows the lengths (EventDecoder has already cut off the 4 checksum bytes
    // that such servers write after it whatever the algorithm).
    if (serverWritesChecksumAlgorithm(fde.serverVersion)) {
        if (typeCount < kChecksumAlgorithmLength) {
            throw TruncatedError("truncated checksum algorithm byte");
        }
        typeCount -= kChecksumAlgorithmLength;
    }
    const std::string_view lengths = body.bytes(typeCount, "post-header lengths");
    fde.postHeaderLengths.assign(lengths.begin(), lengths.end());
    if (serverWritesChecksumAlgorithm(fde.serverVersion)) {
        const uint8_t algorithm = body.u8("checksum algorithm");
        switch (algorithm) {
            case static_cast<uint8_t>(ChecksumAlgorithm::Off):
                fde.checksum = ChecksumAlgorithm::Off;
                break;
            case static_cast<uint8_t>(ChecksumAlgorithm::Crc32):
                fde.checksum = ChecksumAlgorithm::Crc32;
                break;
            case static_cast<uint8_t>(ChecksumAlgorithm::Undefined):
                fde.checksum = ChecksumAlgorithm::Undefined;
                break;
            default:
                throw EventFormatError("unknown checksum algorithm " + std::to_string(algorithm) +
                                       " (only NONE and CRC32 exist)");
        }
    }
    return fde;
}

}  // namespace syncscope::binlog::detail
