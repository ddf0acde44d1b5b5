// Builds small binlog files byte by byte for the source tests: a FORMAT_DESCRIPTION, QUERY and
// ROTATE events with correct sizes and end positions (the sources frame events; they do not decode).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace syncscope::test {

class SyntheticBinlog {
public:
    static constexpr uint8_t kQuery = 2;
    static constexpr uint8_t kRotate = 4;
    static constexpr uint8_t kFormatDescription = 15;

    // Starts with the magic and a MariaDB 10.11 FORMAT_DESCRIPTION (with CRC32 when `checksum`).
    explicit SyntheticBinlog(bool checksum = true);

    // Appends a QUERY event whose text is `query`; returns its start offset.
    uint64_t addQuery(const std::string& query, const std::string& schema = "test");
    // Appends a ROTATE to `nextFile`; returns its start offset.
    uint64_t addRotate(const std::string& nextFile);
    // Appends an event of any type with this body; returns its start offset.
    uint64_t addEvent(uint8_t type, const std::string& body, uint16_t flags = 0);

    const std::string& bytes() const { return bytes_; }
    std::vector<uint64_t> eventStarts() const { return starts_; }
    void writeTo(const std::filesystem::path& path) const;
    // Writes only the first `size` bytes (a file being written, or a truncated one).
    void writePrefixTo(const std::filesystem::path& path, size_t size) const;

private:
    bool checksum_;
    std::string bytes_;
    std::vector<uint64_t> starts_;
};

}  // namespace syncscope::test
