// Reads binlog files from disk: checks the magic, frames events by the size in their common header
// and hands them out without copying (views into one large read buffer). Follows ROTATE to the next
// file of the same directory, and stops cleanly where a file that is still being written ends.
#pragma once

#include <cstdint>
#include <deque>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/binlog/raw_event.h"

namespace syncscope::source {

struct FileSourceOptions {
    static constexpr size_t kDefaultReadBufferSize = 4 * 1024 * 1024;

    // Like mariadb-binlog --start-position: the first event read from the first file starts here
    // (the FORMAT_DESCRIPTION at offset 4 is still handed out first, because decoding needs it).
    // 0 means from the first event.
    uint64_t startPosition = 0;
    // Like mariadb-binlog --stop-position: stop before the first event that starts at or after this
    // offset in the last file of an explicit list, or in `stopFile` when following rotations.
    std::optional<uint64_t> stopPosition;
    std::string stopFile;  // file name (no directory); empty: the first file
    size_t readBufferSize = kDefaultReadBufferSize;
};

class BinlogFileSource {
public:
    // Why next() returned nothing.
    enum class StopReason {
        None,          // not stopped
        Finished,      // every file of an explicit list read to its end
        StopPosition,  // the stop position was reached
        CaughtUp,      // the end of a file still being written (no ROTATE yet): call next() again later
        Incomplete,    // the file ends inside an event (being written, or truncated): call next() again later
    };

    struct Stop {
        StopReason reason = StopReason::None;
        std::string file;  // file name (no directory)
        uint64_t pos = 0;  // where the next event would start
        std::string detail;
    };

    // Starts at `firstFile` and follows ROTATE events (and, after a server restart, the next numbered
    // file) in its directory; an index file (*.index) there is consulted when a target is not found.
    static BinlogFileSource following(const std::filesystem::path& firstFile, FileSourceOptions options = {});
    // Reads exactly these files in this order, as mariadb-binlog does with several file arguments.
    static BinlogFileSource ofFiles(std::vector<std::filesystem::path> files, FileSourceOptions options = {});

    ~BinlogFileSource();
    BinlogFileSource(BinlogFileSource&& other) noexcept;
    BinlogFileSource& operator=(BinlogFileSource&& other) noexcept;
    BinlogFileSource(const BinlogFileSource&) = delete;
    BinlogFileSource& operator=(const BinlogFileSource&) = delete;

    // The next event, or nullopt (see stop()). The event's bytes stay valid until the next call; its
    // file name for the source's lifetime. Throws binlog::DecodeError ("FILE:OFFSET: what") for a file
    // that is not a binlog, an event size that cannot be, or a start position inside an event.
    std::optional<binlog::RawEvent> next();

    const Stop& stop() const { return stop_; }
    // The file and offset where the next event starts.
    std::string currentFile() const;
    uint64_t currentPosition() const { return nextPos_; }
    // Whether the current file's events end with a CRC32 (from its FORMAT_DESCRIPTION).
    bool currentFileHasChecksum() const { return hasChecksum_; }

private:
    BinlogFileSource(std::vector<std::filesystem::path> files, bool follow, FileSourceOptions options);

    bool openFile(const std::filesystem::path& path);  // false when it cannot be read yet
    void closeFile();
    bool fill(size_t needed);  // true when `needed` bytes are buffered at the read point
    bool moveToNextFile();     // after a clean end of file; false when there is none (yet)
    std::optional<std::filesystem::path> resolve(const std::string& fileName) const;
    std::optional<std::filesystem::path> nextNumberedFile() const;
    bool stopsHere() const;
    std::optional<binlog::RawEvent> halt(StopReason reason, std::string detail);
    [[noreturn]] void fail(uint64_t offset, const std::string& what) const;

    FileSourceOptions options_;
    std::vector<std::filesystem::path> files_;  // explicit list, or the first file when following
    bool follow_ = false;
    size_t fileIndex_ = 0;
    std::filesystem::path directory_;
    std::filesystem::path path_;         // the open file
    std::deque<std::string> fileNames_;  // every file name handed out, so that RawEvent::file stays valid

    int fd_ = -1;
    std::vector<char> buffer_;
    uint64_t bufferOffset_ = 0;  // file offset of buffer_[0]
    size_t begin_ = 0;           // read point in buffer_
    size_t end_ = 0;             // end of valid data in buffer_
    uint64_t nextPos_ = 0;       // file offset of the next event
    bool magicChecked_ = false;
    bool hasChecksum_ = false;
    bool firstFile_ = true;
    bool startApplied_ = false;
    bool checkBoundary_ = false;  // the next event follows a seek: make sure one starts there
    std::optional<std::string> pendingRotate_;
    Stop stop_;
};

}  // namespace syncscope::source
