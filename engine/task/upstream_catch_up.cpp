#include "engine/task/upstream_catch_up.h"

#include <algorithm>

namespace syncscope::task {

UpstreamState catchUpWithRead(UpstreamState polled, const binlog::BinlogPosition& read) {
    if (read.isEmpty() || !polled.position || polled.files.empty()) {
        return polled;
    }
    if (read.baseName() != polled.position->baseName()) {
        return polled;  // not this upstream's binlog (a checkpoint from another server): nothing to learn
    }
    if (*polled.position < read) {
        polled.position = read;
    }
    auto listed = std::find_if(polled.files.begin(), polled.files.end(), [&](const binlog::BinlogFileSize& file) {
        return binlog::BinlogPosition::isBinlogFileName(file.file) &&
               binlog::BinlogPosition::fileNumberOf(file.file) == read.fileNumber();
    });
    if (listed != polled.files.end()) {
        listed->size = std::max(listed->size, read.offset());
    } else {
        uint64_t newest = 0;
        for (const auto& file : polled.files) {
            newest = std::max(newest, binlog::BinlogPosition::fileNumberOf(file.file));
        }
        if (read.fileNumber() < newest) {
            return polled;  // read from a purged file: the axis cannot place it
        }
        polled.files.push_back({read.file(), read.offset()});
    }
    polled.axis = binlog::PositionAxis(polled.files);
    return polled;
}

}  // namespace syncscope::task
