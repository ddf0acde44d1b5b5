// One ruler for drawing positions: bytes from the start of the oldest binlog file the upstream still
// has, built from the file list with sizes (SHOW BINARY LOGS), so that positions in different files
// can be placed side by side.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/binlog/binlog_position.h"

namespace syncscope::binlog {

// One row of SHOW BINARY LOGS: Log_name, File_size.
struct BinlogFileSize {
    std::string file;
    uint64_t size = 0;
};

// Where a file lies on the axis, for labelling file boundaries.
struct AxisFile {
    std::string file;
    uint64_t fileNumber = 0;
    uint64_t startBytes = 0;  // axis value of the file's first byte
    uint64_t size = 0;
};

enum class AxisPlacement {
    OnAxis,         // in a file the upstream has
    Purged,         // in a file older than the oldest one the upstream has
    NotYetWritten,  // in a file newer than the newest one the upstream has
    UnknownFile,    // between known files but not in the list (or a different base name), or empty.
                    // DM 1.0 relay names ("bin|000001.000003") are placed as the upstream file ("bin.000003").
};

const char* toString(AxisPlacement placement);

struct AxisPoint {
    AxisPlacement placement = AxisPlacement::UnknownFile;
    uint64_t bytes = 0;          // meaningful only OnAxis
    bool beyondFileEnd = false;  // OnAxis but offset > the file size that was listed (the file grew)
};

class PositionAxis {
public:
    PositionAxis() = default;
    // Sorted by file number here; a name without numeric suffix or a file listed twice throws PositionError.
    explicit PositionAxis(std::vector<BinlogFileSize> files);

    AxisPoint place(const BinlogPosition& position) const;
    // Bytes from the axis start, or nullopt when the position is not OnAxis.
    std::optional<uint64_t> bytesOf(const BinlogPosition& position) const;
    // Bytes from `from` to `to` along the axis (negative when `to` is before `from`); nullopt when
    // either is not OnAxis.
    std::optional<int64_t> distance(const BinlogPosition& from, const BinlogPosition& to) const;

    const std::vector<AxisFile>& files() const { return files_; }
    uint64_t totalBytes() const;
    bool isEmpty() const { return files_.empty(); }

private:
    std::vector<AxisFile> files_;
};

}  // namespace syncscope::binlog
