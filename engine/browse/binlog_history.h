// Where the event browser reads from: the binlog files of an upstream server (through a binlog dump,
// as a replica reads) or local binlog files. A history lists its files and opens a stream of decoded
// events at a file position or after a GTID position; a stream ends where the history ended when the
// stream was opened, so that browsing a live server never waits for new writes.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/binlog/event.h"
#include "engine/binlog/position_axis.h"
#include "engine/common/error.h"

namespace syncscope::browse {

class BrowseError : public Error {
public:
    explicit BrowseError(const std::string& message) : Error(message) {}
};

// A place in a history: a file name as the history lists it and a byte offset in it. Not a
// binlog::BinlogPosition, because local files need not have a numeric suffix.
struct BrowsePoint {
    std::string file;
    uint64_t offset = 0;
    std::string toString() const { return file + ":" + std::to_string(offset); }
    bool operator==(const BrowsePoint&) const = default;
};

class EventStream {
public:
    virtual ~EventStream() = default;
    // Clears `events` and fills it with the next event from the history (several for a TRANSACTION_
    // PAYLOAD). Heartbeats and the artificial events a dump starts with are never handed out. False at
    // the end of the history. Row text may borrow from the stream's buffers: it is valid until the next
    // call. Throws BrowseError or binlog::DecodeError naming the file and offset.
    virtual bool next(std::vector<binlog::Event>& events) = 0;
    // Where the next event starts.
    virtual BrowsePoint position() const = 0;
};

class BinlogHistory {
public:
    virtual ~BinlogHistory() = default;

    // The files, oldest first, with their sizes.
    virtual std::vector<binlog::BinlogFileSize> files() = 0;
    // A stream from `start` (an event boundary in one of files()). Throws BrowseError for a file the
    // history does not have (purged, or not given).
    virtual std::unique_ptr<EventStream> openAt(const BrowsePoint& start) = 0;
    // Like openAt(), for finding a place rather than showing it: every event comes with its header and
    // place, but only FORMAT_DESCRIPTION, GTID, query and payload events have their bodies decoded
    // (BoundaryEventDecoder); rows and table maps have an empty body. Enough for TransactionBoundaries.
    virtual std::unique_ptr<EventStream> openHeadersAt(const BrowsePoint& start) { return openAt(start); }
    // A stream of the transactions after a MariaDB GTID position; nullptr when the history cannot
    // start from GTIDs itself (local files: the browser then reads from the oldest file and skips).
    virtual std::unique_ptr<EventStream> openAfterGtid(const std::string& gtidPosition) = 0;
    // The GTID position at the end of the history and at the start of its oldest file ("" when
    // unknown or not MariaDB).
    virtual std::string currentGtidPosition() = 0;
    virtual std::string oldestGtidPosition() = 0;
    // "user@host:port" or "the given files", for messages.
    virtual std::string describe() const = 0;
};

}  // namespace syncscope::browse
