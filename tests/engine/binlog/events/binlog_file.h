// Test-side framing of a binlog file: the 4-byte magic, then events one after another, each as long
// as its header's event_size says. Used by the fixture suite and to seed the fuzz corpus.
#pragma once

#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/binlog/raw_event.h"

namespace syncscope::test {

inline constexpr std::string_view kBinlogMagic{
    "\xfe"
    "bin",
    4};

struct BinlogFile {
    struct Frame {
        size_t pos = 0;
        size_t size = 0;
    };
    std::string name;   // file name without directory
    std::string bytes;  // the whole file
    std::vector<Frame> frames;

    size_t eventCount() const { return frames.size(); }
    // A view of event i; valid while this object lives and is not moved.
    binlog::RawEvent event(size_t i) const {
        return binlog::RawEvent{std::string_view(bytes).substr(frames[i].pos, frames[i].size), name, frames[i].pos};
    }
};

inline std::string readWholeFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw std::runtime_error("cannot open " + path);
    }
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

// Reads and frames a binlog file; throws std::runtime_error naming the offset when the framing breaks.
inline BinlogFile readBinlogFile(const std::string& path) {
    constexpr size_t kEventSizeOffset = 9;
    BinlogFile file;
    file.name = path.substr(path.find_last_of('/') + 1);
    file.bytes = readWholeFile(path);
    const std::string_view all(file.bytes);
    if (all.substr(0, kBinlogMagic.size()) != kBinlogMagic) {
        throw std::runtime_error(path + ": not a binlog file (no magic bytes)");
    }
    size_t pos = kBinlogMagic.size();
    while (pos < all.size()) {
        if (all.size() - pos < binlog::kEventHeaderSize) {
            throw std::runtime_error(path + ":" + std::to_string(pos) + ": truncated event header");
        }
        uint32_t size = 0;
        for (size_t i = 0; i < 4; ++i) {
            size |= static_cast<uint32_t>(static_cast<uint8_t>(all[pos + kEventSizeOffset + i])) << (8 * i);
        }
        if (size < binlog::kEventHeaderSize || size > all.size() - pos) {
            throw std::runtime_error(path + ":" + std::to_string(pos) + ": bad event size " + std::to_string(size));
        }
        file.frames.push_back(BinlogFile::Frame{pos, size});
        pos += size;
    }
    return file;
}

}  // namespace syncscope::test
