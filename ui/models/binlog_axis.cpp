#include "ui/models/binlog_axis.h"

#include <algorithm>
#include <charconv>

namespace syncscope::ui {

BinlogAxis::BinlogAxis(const std::vector<task::BinlogFileSize>& files) {
    files_.reserve(files.size());
    for (const auto& file : files) {
        files_.push_back({file.name, length_, file.size});
        length_ += file.size;
    }
}

std::optional<uint64_t> BinlogAxis::axisOf(const std::string& file, uint64_t pos) const {
    for (const auto& span : files_) {
        if (span.name == file) {
            return span.start + std::min(pos, span.size);
        }
    }
    return std::nullopt;
}

std::pair<std::string, uint64_t> BinlogAxis::locate(uint64_t axis) const {
    auto after = std::upper_bound(files_.begin(), files_.end(), axis,
                                  [](uint64_t value, const FileSpan& span) { return value < span.start; });
    if (after == files_.begin()) {
        return {};
    }
    const FileSpan& span = *std::prev(after);
    if (axis > span.start + span.size) {
        return {};
    }
    return {span.name, axis - span.start};
}

std::optional<std::pair<std::string, uint64_t>> BinlogAxis::parseFilePos(const std::string& text) {
    const auto colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 >= text.size()) {
        return std::nullopt;
    }
    uint64_t pos = 0;
    const char* first = text.data() + colon + 1;
    const char* last = text.data() + text.size();
    auto [end, error] = std::from_chars(first, last, pos);
    if (error != std::errc() || end != last) {
        return std::nullopt;
    }
    std::string file = text.substr(0, colon);
    while (!file.empty() && file.front() == ' ') {
        file.erase(file.begin());
    }
    if (file.empty()) {
        return std::nullopt;
    }
    return std::make_pair(file, pos);
}

}  // namespace syncscope::ui
