// Reads a stream of events, groups them into transactions and hands the matching ones to a sink as
// they come: memory stays bounded by one event (and the sink's own caps), whatever the range.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "engine/browse/binlog_history.h"
#include "engine/browse/browse_filter.h"
#include "engine/browse/browsed_event.h"
#include "engine/browse/key_matcher.h"
#include "engine/browse/transaction_boundaries.h"

namespace syncscope::browse {

class BrowseSink {
public:
    virtual ~BrowseSink() = default;
    // Before the first shown event of a transaction: its start, time and GTID are known.
    virtual void transactionStarts(const BrowsedTransaction& trx) = 0;
    virtual void event(const BrowsedTransaction& trx, BrowsedEvent&& event) = 0;
    // After its last event (or where the range ended): end position and counts. False stops browsing.
    virtual bool transactionEnds(const BrowsedTransaction& trx) = 0;
};

struct BrowseProgress {
    BrowsePoint at;  // where the next event starts
    uint64_t eventsRead = 0;
    uint64_t transactionsRead = 0;
    uint64_t transactionsShown = 0;
};

struct BrowseOutcome {
    enum class End { HistoryEnd, StopPoint, SinkStopped, Cancelled };
    End end = End::HistoryEnd;
    BrowseProgress progress;
};

struct BrowseRange {
    // Stop before the first transaction that starts at or after this point (a point in a later file
    // of the history counts as after; the file order is the history's).
    std::optional<BrowsePoint> stopAt;
    // Skip transactions whose MariaDB GTID is at or before this position ("0-1-5,1-2-3"), for a
    // history that cannot start after a GTID itself.
    std::string skipUpToGtid;
    // Every this many events, onProgress is called (0: never).
    uint64_t progressEvery = 0;
    std::function<void(const BrowseProgress&)> onProgress;
    const std::atomic<bool>* cancel = nullptr;
};

class EventBrowser {
public:
    EventBrowser(BrowseFilter filter, std::vector<binlog::BinlogFileSize> fileOrder)
        : filter_(std::move(filter)), fileOrder_(std::move(fileOrder)) {
        if (filter_.keyValue) {
            keyMatcher_.emplace(*filter_.keyValue);
        }
    }

    BrowseOutcome browse(EventStream& stream, BrowseSink& sink, const BrowseRange& range = {});

private:
    bool reachedStop(const BrowsePoint& at, const BrowseRange& range) const;
    size_t fileIndex(const std::string& file) const;

    BrowseFilter filter_;
    std::optional<KeyMatcher> keyMatcher_;  // filter_.keyValue parsed once
    std::vector<binlog::BinlogFileSize> fileOrder_;
};

// A sink that keeps whole transactions for a page (the GUI): at most maxTransactions of them and
// maxEventsPerTransaction events each (the rest are counted).
class TransactionCollector : public BrowseSink {
public:
    static constexpr size_t kDefaultMaxTransactions = 500;
    static constexpr size_t kDefaultMaxEventsPerTransaction = 200;

    explicit TransactionCollector(size_t maxTransactions = kDefaultMaxTransactions,
                                  size_t maxEventsPerTransaction = kDefaultMaxEventsPerTransaction)
        : maxTransactions_(maxTransactions), maxEvents_(maxEventsPerTransaction) {}

    void transactionStarts(const BrowsedTransaction& trx) override;
    void event(const BrowsedTransaction& trx, BrowsedEvent&& event) override;
    bool transactionEnds(const BrowsedTransaction& trx) override;

    std::vector<BrowsedTransaction>& transactions() { return transactions_; }
    bool full() const { return transactions_.size() >= maxTransactions_; }

private:
    size_t maxTransactions_;
    size_t maxEvents_;
    std::vector<BrowsedTransaction> transactions_;
};

}  // namespace syncscope::browse
