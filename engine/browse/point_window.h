// A page of transactions around one point of the history (a marker of the ruler, a failed event, a
// table point): up to `before` transactions that ended before it, the one holding it, and up to
// `after` more. Read from the start of the point's file, keeping only the window: bounded memory.
#pragma once

#include <deque>
#include <optional>
#include <vector>

#include "engine/browse/event_browser.h"

namespace syncscope::browse {

// <0, 0, >0 as `a` is before, at or after `b`; files ordered as in `files` (then by numeric suffix).
int comparePoints(const BrowsePoint& a, const BrowsePoint& b, const std::vector<binlog::BinlogFileSize>& files);

class PointWindowCollector : public BrowseSink {
public:
    static constexpr size_t kDefaultBefore = 50;
    static constexpr size_t kDefaultAfter = 200;

    PointWindowCollector(BrowsePoint target, std::vector<binlog::BinlogFileSize> files, size_t before = kDefaultBefore,
                         size_t after = kDefaultAfter,
                         size_t maxEventsPerTransaction = TransactionCollector::kDefaultMaxEventsPerTransaction);

    void transactionStarts(const BrowsedTransaction& trx) override;
    void event(const BrowsedTransaction& trx, BrowsedEvent&& event) override;
    bool transactionEnds(const BrowsedTransaction& trx) override;

    // The window, oldest first, and which of them holds (or first follows) the target; nullopt when
    // every transaction read ended before it.
    std::vector<BrowsedTransaction> take();
    std::optional<size_t> targetIndex() const;

private:
    BrowsePoint target_;
    std::vector<binlog::BinlogFileSize> files_;
    size_t before_;
    size_t after_;
    size_t maxEvents_;
    std::deque<BrowsedTransaction> window_;
    std::optional<BrowsedTransaction> current_;
    std::optional<size_t> targetIndex_;
};

}  // namespace syncscope::browse
