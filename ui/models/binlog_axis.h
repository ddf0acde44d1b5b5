// The ruler's axis: bytes from the start of the oldest binlog file the upstream still has, built from
// SHOW BINARY LOGS (StatusSnapshot::upstreamFiles), so that positions in different files share one line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/task/status_snapshot.h"

namespace syncscope::ui {

class BinlogAxis {
public:
    struct FileSpan {
        std::string name;
        uint64_t start = 0;  // axis value of the file's first byte
        uint64_t size = 0;
    };

    BinlogAxis() = default;
    explicit BinlogAxis(const std::vector<task::BinlogFileSize>& files);

    bool empty() const { return files_.empty(); }
    uint64_t length() const { return length_; }
    const std::vector<FileSpan>& files() const { return files_; }

    // nullopt when the file is not among the upstream's files (purged, or unknown).
    std::optional<uint64_t> axisOf(const std::string& file, uint64_t pos) const;
    // The file and position an axis value falls in; empty file name outside the axis.
    std::pair<std::string, uint64_t> locate(uint64_t axis) const;

    // Parses "mysql-bin.000003:1234"; nullopt when the text is not file:pos.
    static std::optional<std::pair<std::string, uint64_t>> parseFilePos(const std::string& text);

private:
    std::vector<FileSpan> files_;
    uint64_t length_ = 0;
};

}  // namespace syncscope::ui
