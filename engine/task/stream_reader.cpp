#include "engine/task/stream_reader.h"

#include <spdlog/spdlog.h>

namespace syncscope::task {

void StreamReader::open(std::unique_ptr<BinlogStream> stream) {
    std::lock_guard lock(mutex_);
    stream_ = std::move(stream);
    if (cut_) {
        stream_->cancel();
    }
}

std::optional<binlog::RawEvent> StreamReader::next() {
    std::optional<binlog::RawEvent> raw = stream_->next();
    noticeReconnect();
    return raw;
}

void StreamReader::cut() {
    std::lock_guard lock(mutex_);
    cut_ = true;
    if (stream_) {
        stream_->cancel();
    }
}

bool StreamReader::reconnecting() const {
    std::lock_guard lock(mutex_);
    return stream_ && stream_->connection().reconnecting;
}

std::optional<StreamConnectionView> StreamReader::connection() const {
    std::lock_guard lock(mutex_);
    if (!stream_) {
        return std::nullopt;
    }
    return stream_->connection();
}

void StreamReader::noticeReconnect() {
    uint64_t reconnects = stream_->reconnects();
    if (reconnects == reconnects_) {
        return;
    }
    reconnects_ = reconnects;
    if (lastHandledFile_.empty()) {
        return;  // nothing handled yet: whatever comes is new
    }
    passOverUntil_ = binlog::BinlogPosition(lastHandledFile_, lastHandledEndPos_);
    passedOver_ = 0;
    spdlog::info(
        "task {}: binlog stream resumed in place after a lost connection (reconnect {}): the events after the "
        "last complete transaction come again and those up to {} are passed over",
        taskName_, reconnects, passOverUntil_->toString());
}

bool StreamReader::isFraming(const binlog::Event& event) {
    return event.as<binlog::RotateEvent>() != nullptr || event.as<binlog::FormatDescriptionEvent>() != nullptr ||
           event.as<binlog::HeartbeatEvent>() != nullptr;
}

bool StreamReader::handledBefore(const binlog::Event& event, const std::string& currentFile) {
    if (!passOverUntil_ || isFraming(event) || event.endPos == 0) {
        return false;
    }
    std::string file = event.file.empty() ? currentFile : std::string(event.file);
    if (binlog::BinlogPosition(file, event.endPos) <= *passOverUntil_) {
        ++passedOver_;
        return true;
    }
    spdlog::info("task {}: {} events read again after the reconnect were passed over; reading on from {}", taskName_,
                 passedOver_, passOverUntil_->toString());
    passOverUntil_.reset();
    return false;
}

void StreamReader::handled(const binlog::Event& event, const std::string& currentFile) {
    if (event.endPos == 0 || isFraming(event)) {
        return;
    }
    // Per event: the file name is copied only when it changes (a rotation).
    if (lastHandledFile_ != currentFile) {
        lastHandledFile_ = currentFile;
    }
    lastHandledEndPos_ = event.endPos;
}

}  // namespace syncscope::task
