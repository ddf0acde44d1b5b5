// Turns what a DBA names into a place in the upstream's binlog, and refuses what cannot be one:
// a time becomes the first transaction at or after it (binary search over the times the files were
// begun, then a scan of event headers from one file on, no row decoded); a position must be a transaction boundary; a
// GTID position must be in the upstream's history (not purged, not beyond what it has written).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/browse/binlog_history.h"

namespace syncscope::browse {

// A transaction found in the history.
struct FoundTransaction {
    BrowsePoint start;  // its first event: a resume point (the end of the event before it)
    BrowsePoint end;    // the end of its last event
    uint32_t timestamp = 0;
    std::string gtid;            // "" without GTIDs
    uint64_t filesProbed = 0;    // files whose start time was read
    uint64_t eventsScanned = 0;  // events read by the final scan
};

class PointResolver {
public:
    explicit PointResolver(BinlogHistory& history, const std::atomic<bool>* cancel = nullptr)
        : history_(history), cancel_(cancel) {}

    // The first transaction whose first event is at or after `time`. Throws BrowseError for a time
    // before the oldest binlog's start, or after the newest transaction.
    FoundTransaction firstTransactionAtOrAfter(uint32_t time);

    // Throws BrowseError when `point` is not in the history, not an event boundary, or inside a
    // transaction (naming the transaction's start and end, both good points to use instead).
    void checkTransactionBoundary(const BrowsePoint& point);

    // Throws BrowseError when a MariaDB GTID position names a domain the upstream never wrote, a
    // sequence beyond what it has written, or one in a purged file. Nothing is checked when the
    // history does not know its GTIDs (local files, MySQL).
    void checkGtidInHistory(const std::string& gtidPosition);

private:
    // A file's first event time (when it was begun), which orders the files for the search; its first
    // transaction's time is read only when the first event has no time.
    struct FileStart {
        uint32_t firstEventTime = 0;
        std::optional<uint32_t> firstTransactionTime;
        uint32_t searchKey() const;
    };
    FileStart fileStart(const std::string& file);
    // The newest transaction in the few files before files[fileIndex], for a message.
    std::optional<FoundTransaction> lastTransactionBefore(const std::vector<binlog::BinlogFileSize>& files,
                                                          size_t fileIndex);
    bool cancelled() const { return cancel_ != nullptr && cancel_->load(); }

    BinlogHistory& history_;
    const std::atomic<bool>* cancel_;
    uint64_t filesProbed_ = 0;
};

}  // namespace syncscope::browse
