// The stream reader: where the sync pipeline's raw events come from. It owns the binlog stream, cuts it
// when a stop cannot wait for the transaction being read, and, after the stream was resumed in place
// (a lost connection, BinlogStream::reconnects grew), passes over the events that come again up to
// the end of the last one handled, so that no row of the transaction being read is dispatched twice
// and no checkpoint moves back. One role of the pipeline (docs/design.md, "The sync path").
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "engine/binlog/event.h"
#include "engine/binlog/location.h"
#include "engine/task/binlog_stream.h"

namespace syncscope::task {

class StreamReader {
public:
    explicit StreamReader(std::string taskName) : taskName_(std::move(taskName)) {}

    // Takes the opened stream; a cut that came while it was being opened cuts it at once.
    void open(std::unique_ptr<BinlogStream> stream);
    // The next raw event, nullopt when none came within the stream's poll interval. After a
    // reconnect, the events up to the last one handled are then passed over (handledBefore).
    std::optional<binlog::RawEvent> next();

    // From another thread: cuts the stream; next() returns within a second.
    void cut();
    bool wasCut() const { return cut_; }
    // From any thread: the stream is being reconnected (nothing can be read until it is back).
    bool reconnecting() const;
    // From any thread: the connection's state, when a stream is open.
    std::optional<StreamConnectionView> connection() const;

    // Whether the event was handled before the stream was resumed in place: it is passed over.
    // `currentFile` names the file of an event that does not carry its own.
    bool handledBefore(const binlog::Event& event, const std::string& currentFile);
    // After an event was handled: the point a reconnect passes over up to.
    void handled(const binlog::Event& event, const std::string& currentFile);

    // The ROTATE and FORMAT_DESCRIPTION a (re)started dump begins with, and heartbeats: not the file's
    // own events, they move no point.
    static bool isFraming(const binlog::Event& event);

private:
    void noticeReconnect();

    std::string taskName_;
    mutable std::mutex mutex_;  // guards stream_ against cut() and connection() from other threads
    std::unique_ptr<BinlogStream> stream_;
    std::atomic<bool> cut_{false};

    uint64_t reconnects_ = 0;
    std::string lastHandledFile_;     // the end of the last event handled: file ...
    uint64_t lastHandledEndPos_ = 0;  // ... and offset
    std::optional<binlog::BinlogPosition> passOverUntil_;
    uint64_t passedOver_ = 0;
};

}  // namespace syncscope::task
