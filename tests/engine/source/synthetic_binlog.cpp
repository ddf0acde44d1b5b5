#include "tests/engine/source/synthetic_binlog.h"

#include <fstream>

namespace syncscope::test {

namespace {

constexpr size_t kHeaderSize = 19;
constexpr size_t kChecksumSize = 4;
constexpr size_t kServerVersionLength = 50;
constexpr uint32_t kServerId = 1;
constexpr uint32_t kTimestamp = 1700000000;

void putLittleEndian(std::string& out, uint64_t value, size_t width) {
    for (size_t i = 0; i < width; ++i) {
        out += static_cast<char>((value >> (8 * i)) & 0xFF);
    }
}

}  // namespace

SyntheticBinlog::SyntheticBinlog(bool checksum) : checksum_(checksum), bytes_("\xfe\x62\x69\x6e", 4) {
    std::string body;
    putLittleEndian(body, 4, 2);  // binlog version
    std::string version = "10.11.6-MariaDB-log";
    version.resize(kServerVersionLength, '\0');
    body += version;
    putLittleEndian(body, kTimestamp, 4);
    body += static_cast<char>(kHeaderSize);
    body += std::string(40, '\x08');  // post-header lengths (not read by the sources)
    body += static_cast<char>(checksum ? 1 : 0);
    // The FDE always has room for a checksum after the algorithm byte when the server knows them.
    addEvent(kFormatDescription, body);
}

uint64_t SyntheticBinlog::addEvent(uint8_t type, const std::string& body, uint16_t flags) {
    // The FORMAT_DESCRIPTION always ends with a 4-byte checksum field, even when checksums are off.
    bool trailer = checksum_ || type == kFormatDescription;
    uint64_t start = bytes_.size();
    uint64_t size = kHeaderSize + body.size() + (trailer ? kChecksumSize : 0);
    putLittleEndian(bytes_, kTimestamp, 4);
    bytes_ += static_cast<char>(type);
    putLittleEndian(bytes_, kServerId, 4);
    putLittleEndian(bytes_, size, 4);
    putLittleEndian(bytes_, start + size, 4);
    putLittleEndian(bytes_, flags, 2);
    bytes_ += body;
    if (trailer) {
        bytes_ += std::string("\x11\x22\x33\x44", 4);  // not verified by the sources
    }
    starts_.push_back(start);
    return start;
}

uint64_t SyntheticBinlog::addQuery(const std::string& query, const std::string& schema) {
    std::string body;
    putLittleEndian(body, 7, 4);  // thread id
    putLittleEndian(body, 0, 4);  // exec time
    body += static_cast<char>(schema.size());
    putLittleEndian(body, 0, 2);  // error code
    putLittleEndian(body, 0, 2);  // status variables length
    body += schema;
    body += '\0';
    body += query;
    return addEvent(kQuery, body);
}

uint64_t SyntheticBinlog::addRotate(const std::string& nextFile) {
    std::string body;
    putLittleEndian(body, 4, 8);
    body += nextFile;
    return addEvent(kRotate, body);
}

void SyntheticBinlog::writeTo(const std::filesystem::path& path) const {
    writePrefixTo(path, bytes_.size());
}

void SyntheticBinlog::writePrefixTo(const std::filesystem::path& path, size_t size) const {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes_.data(), static_cast<std::streamsize>(std::min(size, bytes_.size())));
}

}  // namespace syncscope::test
