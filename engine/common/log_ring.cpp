#include "engine/common/log_ring.h"

#include <algorithm>

namespace syncscope {

const char* logLevelName(LogLevel level) {
    switch (level) {
        case LogLevel::Trace:
            return "trace";
        case LogLevel::Debug:
            return "debug";
        case LogLevel::Info:
            return "info";
        case LogLevel::Warning:
            return "warning";
        case LogLevel::Error:
            return "error";
        case LogLevel::Critical:
            return "critical";
    }
    return "unknown";
}

LogRing::LogRing(size_t capacity) : capacity_(std::max<size_t>(capacity, 1)) {}

void LogRing::push(LogLine line) {
    std::lock_guard lock(mutex_);
    if (lines_.size() >= capacity_) {
        lines_.pop_front();
        ++droppedSinceDrain_;
    }
    lines_.push_back(std::move(line));
    ++totalPushed_;
}

LogBatch LogRing::drain(size_t maxCount) {
    LogBatch batch;
    std::lock_guard lock(mutex_);
    const size_t count = std::min(maxCount, lines_.size());
    batch.lines.reserve(count);
    for (size_t i = 0; i < count; ++i) {
        batch.lines.push_back(std::move(lines_.front()));
        lines_.pop_front();
    }
    batch.dropped = droppedSinceDrain_;
    droppedSinceDrain_ = 0;
    return batch;
}

size_t LogRing::size() const {
    std::lock_guard lock(mutex_);
    return lines_.size();
}

uint64_t LogRing::totalPushed() const {
    std::lock_guard lock(mutex_);
    return totalPushed_;
}

}  // namespace syncscope
