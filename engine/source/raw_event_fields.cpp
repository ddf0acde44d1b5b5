#include "engine/source/raw_event_fields.h"

#include <cstdio>

#include "engine/binlog/byte_reader.h"
#include "engine/binlog/raw_event.h"

namespace syncscope::source {

namespace {

constexpr size_t kTimestampOffset = 0;
constexpr size_t kTypeOffset = 4;
constexpr size_t kServerIdOffset = 5;
constexpr size_t kEventSizeOffset = 9;
constexpr size_t kLogPosOffset = 13;
constexpr size_t kFlagsOffset = 17;

// FORMAT_DESCRIPTION body: binlog version (2), server version (50), create time (4), header length (1).
constexpr size_t kServerVersionOffset = 2;
constexpr size_t kServerVersionLength = 50;
constexpr size_t kFormatDescriptionFixedPart = 2 + kServerVersionLength + 4 + 1;
constexpr size_t kChecksumAlgorithmLength = 1;
constexpr uint8_t kChecksumCrc32 = 1;

// ROTATE body: position (8), then the file name up to the end (before the checksum).
constexpr size_t kRotatePositionLength = 8;

// QUERY post-header: thread id (4), exec time (4), schema length (1), error code (2), status length (2).
constexpr size_t kQueryPostHeaderLength = 13;
constexpr size_t kQuerySchemaLengthOffset = 8;
constexpr size_t kQueryStatusLengthOffset = 11;

struct Version {
    int major = 0, minor = 0, patch = 0;
    auto operator<=>(const Version&) const = default;
};

// The servers that first wrote the checksum algorithm byte into the FORMAT_DESCRIPTION.
constexpr Version kMySqlChecksumSince{5, 6, 1};
constexpr Version kMariaDbChecksumSince{5, 3, 0};

uint64_t littleEndian(std::string_view bytes, size_t offset, size_t width) {
    uint64_t value = 0;
    for (size_t i = 0; i < width; ++i) {
        value |= static_cast<uint64_t>(static_cast<uint8_t>(bytes[offset + i])) << (8 * i);
    }
    return value;
}

}  // namespace

RawEventHeader readRawEventHeader(std::string_view bytes) {
    RawEventHeader header;
    header.timestamp = static_cast<uint32_t>(littleEndian(bytes, kTimestampOffset, 4));
    header.type = static_cast<uint8_t>(bytes[kTypeOffset]);
    header.serverId = static_cast<uint32_t>(littleEndian(bytes, kServerIdOffset, 4));
    header.eventSize = static_cast<uint32_t>(littleEndian(bytes, kEventSizeOffset, 4));
    header.logPos = static_cast<uint32_t>(littleEndian(bytes, kLogPosOffset, 4));
    header.flags = static_cast<uint16_t>(littleEndian(bytes, kFlagsOffset, 2));
    return header;
}

bool formatDescriptionHasChecksum(std::string_view bytes) {
    binlog::ByteReader reader(bytes);
    reader.skip(binlog::kEventHeaderSize, "event header");
    binlog::ByteReader body = reader.sub(reader.remaining(), "format description");
    body.need(kFormatDescriptionFixedPart + kChecksumAlgorithmLength + binlog::kChecksumSize,
              "format description body");
    std::string_view versionField = bytes.substr(binlog::kEventHeaderSize + kServerVersionOffset, kServerVersionLength);
    std::string version(versionField.substr(0, versionField.find('\0')));
    Version parsed;
    if (std::sscanf(version.c_str(), "%d.%d.%d", &parsed.major, &parsed.minor, &parsed.patch) != 3) {
        return false;
    }
    bool mariaDb = version.find("MariaDB") != std::string::npos;
    if (parsed < (mariaDb ? kMariaDbChecksumSince : kMySqlChecksumSince)) {
        return false;
    }
    auto algorithm = static_cast<uint8_t>(bytes[bytes.size() - binlog::kChecksumSize - kChecksumAlgorithmLength]);
    return algorithm == kChecksumCrc32;
}

RotateTarget readRotateTarget(std::string_view bytes, bool hasChecksum) {
    binlog::ByteReader reader(bytes);
    reader.skip(binlog::kEventHeaderSize, "event header");
    if (hasChecksum) {
        reader = binlog::ByteReader(bytes.substr(0, bytes.size() - std::min(bytes.size(), binlog::kChecksumSize)));
        reader.skip(binlog::kEventHeaderSize, "event header");
    }
    RotateTarget target;
    target.position = reader.u64("rotate position");
    target.file = std::string(reader.rest());
    return target;
}

std::string_view readQueryText(std::string_view bytes, bool hasChecksum) {
    size_t end = bytes.size() - (hasChecksum ? std::min(bytes.size(), binlog::kChecksumSize) : 0);
    size_t postHeader = binlog::kEventHeaderSize;
    if (end < postHeader + kQueryPostHeaderLength) {
        return {};
    }
    size_t schemaLength = static_cast<uint8_t>(bytes[postHeader + kQuerySchemaLengthOffset]);
    size_t statusLength = littleEndian(bytes, postHeader + kQueryStatusLengthOffset, 2);
    size_t queryStart = postHeader + kQueryPostHeaderLength + statusLength + schemaLength + 1;  // schema ends in NUL
    if (queryStart > end) {
        return {};
    }
    return bytes.substr(queryStart, end - queryStart);
}

}  // namespace syncscope::source
