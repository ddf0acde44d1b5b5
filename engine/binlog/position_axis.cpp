#include "engine/binlog/position_axis.h"

#include <algorithm>
#include <limits>

namespace syncscope::binlog {

namespace {

// DM 1.0 named relay copies "mysql-bin|000001.000003" (relay sub-directory after '|'): the upstream
// file is "mysql-bin.000003".
std::string upstreamFileName(const std::string& file) {
    size_t bar = file.find('|');
    size_t dot = file.rfind('.');
    if (bar == std::string::npos || dot == std::string::npos || dot < bar) {
        return file;
    }
    return file.substr(0, bar) + file.substr(dot);
}

}  // namespace

const char* toString(AxisPlacement placement) {
    switch (placement) {
        case AxisPlacement::OnAxis:
            return "on axis";
        case AxisPlacement::Purged:
            return "purged";
        case AxisPlacement::NotYetWritten:
            return "not yet written";
        case AxisPlacement::UnknownFile:
            return "unknown file";
    }
    return "unknown file";
}

PositionAxis::PositionAxis(std::vector<BinlogFileSize> files) {
    for (auto& listed : files) {
        files_.push_back(AxisFile{listed.file, BinlogPosition::fileNumberOf(listed.file), 0, listed.size});
    }
    std::sort(files_.begin(), files_.end(),
              [](const AxisFile& a, const AxisFile& b) { return a.fileNumber < b.fileNumber; });
    uint64_t start = 0;
    for (size_t i = 0; i < files_.size(); ++i) {
        if (i > 0 && files_[i].fileNumber == files_[i - 1].fileNumber) {
            throw PositionError("binlog file list names file number " + std::to_string(files_[i].fileNumber) +
                                " twice ('" + files_[i - 1].file + "' and '" + files_[i].file + "')");
        }
        files_[i].startBytes = start;
        start += files_[i].size;
    }
}

AxisPoint PositionAxis::place(const BinlogPosition& position) const {
    AxisPoint point;
    if (position.isEmpty() || files_.empty()) {
        return point;
    }
    if (position.fileNumber() < files_.front().fileNumber) {
        point.placement = AxisPlacement::Purged;
        return point;
    }
    if (position.fileNumber() > files_.back().fileNumber) {
        point.placement = AxisPlacement::NotYetWritten;
        return point;
    }
    auto it = std::lower_bound(files_.begin(), files_.end(), position.fileNumber(),
                               [](const AxisFile& file, uint64_t number) { return file.fileNumber < number; });
    if (it == files_.end() || it->fileNumber != position.fileNumber() ||
        it->file != upstreamFileName(position.file())) {
        return point;
    }
    point.placement = AxisPlacement::OnAxis;
    point.bytes = it->startBytes + position.offset();
    point.beyondFileEnd = position.offset() > it->size;
    return point;
}

std::optional<uint64_t> PositionAxis::bytesOf(const BinlogPosition& position) const {
    AxisPoint point = place(position);
    if (point.placement != AxisPlacement::OnAxis) {
        return std::nullopt;
    }
    return point.bytes;
}

std::optional<int64_t> PositionAxis::distance(const BinlogPosition& from, const BinlogPosition& to) const {
    auto a = bytesOf(from);
    auto b = bytesOf(to);
    if (!a || !b) {
        return std::nullopt;
    }
    constexpr auto kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    if (*b >= *a) {
        return static_cast<int64_t>(std::min(*b - *a, kMax));
    }
    return -static_cast<int64_t>(std::min(*a - *b, kMax));
}

uint64_t PositionAxis::totalBytes() const {
    return files_.empty() ? 0 : files_.back().startBytes + files_.back().size;
}

}  // namespace syncscope::binlog
