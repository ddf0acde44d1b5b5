#include "engine/browse/server_binlog_history.h"

#include <chrono>

#include "engine/binlog/event_decoder.h"
#include "engine/browse/boundary_event_decoder.h"
#include "engine/source/binlog_server_source.h"
#include "engine/source/upstream_connection.h"

namespace syncscope::browse {

namespace {

// Browsing stops at the end of the history as it was when the stream was opened; a heartbeat (sent
// after this much silence) means the dump has nothing more to send.
constexpr std::chrono::milliseconds kHeartbeatPeriod{1000};
constexpr std::chrono::seconds kReadTimeout{10};

bool isFileHeaderOrHeartbeat(const binlog::Event& event) {
    return event.type() == binlog::EventType::Heartbeat || event.type() == binlog::EventType::HeartbeatV2;
}

// The ROTATE and FORMAT_DESCRIPTION a dump starts with, and the GTID_LIST MariaDB sends after a GTID
// start, are not in the file at the place they claim.
bool isArtificial(const binlog::Event& event) {
    return (event.header.flags & binlog::EventHeader::kArtificialFlag) != 0 || event.header.logPos == 0;
}

uint64_t fileNumber(const std::string& file) {
    return binlog::BinlogPosition::isBinlogFileName(file) ? binlog::BinlogPosition::fileNumberOf(file) : 0;
}

class ServerEventStream : public EventStream {
public:
    ServerEventStream(source::ServerSourceOptions options, BrowsePoint end, bool headersOnly = false)
        : end_(std::move(end)), endFileNumber_(fileNumber(end_.file)), source_(options), headersOnly_(headersOnly) {
        position_ = {options.startFile, options.startPosition};
        decoder_.decoder().setRowTextStorage(binlog::TextStorage::Borrow);
        if (options.startGtid.empty() && !before(position_)) {
            finished_ = true;  // starting at (or past) the end: nothing to wait for
        }
    }

    bool next(std::vector<binlog::Event>& events) override {
        while (!finished_) {
            decoder_.decoder().recycle(events);
            auto raw = source_.next();
            if (!raw) {
                return false;
            }
            if (!checksumSet_) {
                decoder_.decoder().setChecksum(source_.hasChecksum() ? binlog::ChecksumAlgorithm::Crc32
                                                                     : binlog::ChecksumAlgorithm::Off);
                checksumSet_ = true;
            }
            if (headersOnly_) {
                decoder_.decodeInto(*raw, events);
            } else {
                decoder_.decoder().decodeInto(*raw, events);
            }
            if (events.empty()) {
                continue;
            }
            const binlog::Event& first = events.front();
            if (isFileHeaderOrHeartbeat(first)) {
                finished_ = true;  // silence: everything written before the open has been read
                return false;
            }
            if (isArtificial(first)) {
                continue;
            }
            position_ = {std::string(first.file), first.endPos};
            if (!before(position_)) {
                finished_ = true;  // this event is the last one; hand it out
            }
            return true;
        }
        return false;
    }

    BrowsePoint position() const override { return position_; }

private:
    bool before(const BrowsePoint& point) const {
        uint64_t number = fileNumber(point.file);
        return number < endFileNumber_ || (number == endFileNumber_ && point.offset < end_.offset);
    }

    BrowsePoint end_;
    uint64_t endFileNumber_;
    source::BinlogServerSource source_;
    bool headersOnly_;
    BoundaryEventDecoder decoder_;
    BrowsePoint position_;
    bool checksumSet_ = false;
    bool finished_ = false;
};

}  // namespace

ServerBinlogHistory::ServerBinlogHistory(ServerSettings server)
    : server_(std::move(server)), connection_(std::make_unique<source::UpstreamConnection>(server_)) {}

ServerBinlogHistory::~ServerBinlogHistory() = default;

std::vector<binlog::BinlogFileSize> ServerBinlogHistory::files() {
    std::vector<binlog::BinlogFileSize> files;
    constexpr size_t kSizeColumn = 1;
    for (const auto& row : connection_->query("SHOW BINARY LOGS")) {
        if (row.size() > kSizeColumn && row[0] && row[kSizeColumn]) {
            files.push_back({*row[0], std::stoull(*row[kSizeColumn])});
        }
    }
    if (files.empty()) {
        throw BrowseError(describe() + ": the upstream has no binary logs (SHOW BINARY LOGS is empty; is log_bin on?)");
    }
    return files;
}

BrowsePoint ServerBinlogHistory::endPosition() {
    auto rows = connection_->query("SHOW MASTER STATUS");
    if (rows.empty() || rows.front().size() < 2 || !rows.front()[0] || !rows.front()[1]) {
        throw BrowseError(describe() + ": SHOW MASTER STATUS is empty (is log_bin on?)");
    }
    return {*rows.front()[0], std::stoull(*rows.front()[1])};
}

std::string ServerBinlogHistory::currentGtidPosition() {
    try {
        return connection_->queryValue("SELECT @@GLOBAL.gtid_binlog_pos").value_or("");
    } catch (const source::UpstreamError&) {
        return {};  // MySQL: no such variable
    }
}

std::string ServerBinlogHistory::oldestGtidPosition() {
    try {
        // Only a file name the server listed goes into the SQL text.
        std::string oldest = files().front().file;
        return connection_->queryValue("SELECT BINLOG_GTID_POS('" + oldest + "', 4)").value_or("");
    } catch (const source::UpstreamError&) {
        return {};  // MySQL: no such function
    }
}

namespace {

source::ServerSourceOptions dumpOptions(const ServerSettings& server) {
    source::ServerSourceOptions options;
    options.server = server;
    options.checkSettings = false;  // browsing reads any binlog
    options.heartbeatPeriod = kHeartbeatPeriod;
    options.readTimeout = kReadTimeout;
    options.maxReconnectAttempts = 0;
    return options;
}

}  // namespace

std::unique_ptr<EventStream> ServerBinlogHistory::open(const BrowsePoint& start, bool headersOnly) {
    bool listed = false;
    for (const auto& file : files()) {
        listed = listed || file.file == start.file;
    }
    if (!listed) {
        auto all = files();
        throw BrowseError(describe() + ": binlog file '" + start.file + "' is not on the upstream (purged, or never " +
                          "written); it has " + all.front().file + " to " + all.back().file);
    }
    auto options = dumpOptions(server_);
    options.startFile = start.file;
    options.startPosition = start.offset;
    return std::make_unique<ServerEventStream>(std::move(options), endPosition(), headersOnly);
}

std::unique_ptr<EventStream> ServerBinlogHistory::openAt(const BrowsePoint& start) {
    return open(start, false);
}

std::unique_ptr<EventStream> ServerBinlogHistory::openHeadersAt(const BrowsePoint& start) {
    return open(start, true);
}

std::unique_ptr<EventStream> ServerBinlogHistory::openAfterGtid(const std::string& gtidPosition) {
    auto options = dumpOptions(server_);
    options.startGtid = gtidPosition;
    return std::make_unique<ServerEventStream>(std::move(options), endPosition());
}

}  // namespace syncscope::browse
