// A bounded ring of log lines between the engine's threads and a front end that drains it on its own
// timer, so that a burst of log lines never becomes a burst of cross-thread calls. When the ring is full
// the oldest line is dropped and counted, so the reader can say how many it missed.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace syncscope {

enum class LogLevel { Trace, Debug, Info, Warning, Error, Critical };

const char* logLevelName(LogLevel level);

struct LogLine {
    std::chrono::system_clock::time_point at{};
    LogLevel level = LogLevel::Info;
    std::string logger;   // the engine part that wrote it (source, apply, checkpoint, ...)
    std::string message;  // already formatted, without time or level
};

// What one drain returns: the lines in order, and how many were dropped since the last drain.
struct LogBatch {
    std::vector<LogLine> lines;
    uint64_t dropped = 0;
};

class LogRing {
public:
    static constexpr size_t kDefaultCapacity = 20000;

    explicit LogRing(size_t capacity = kDefaultCapacity);

    void push(LogLine line);
    // Takes at most maxCount of the oldest lines out of the ring.
    LogBatch drain(size_t maxCount);

    size_t capacity() const { return capacity_; }
    size_t size() const;
    uint64_t totalPushed() const;

private:
    const size_t capacity_;
    mutable std::mutex mutex_;
    std::deque<LogLine> lines_;
    uint64_t droppedSinceDrain_ = 0;
    uint64_t totalPushed_ = 0;
};

}  // namespace syncscope
