// How `syncscope-cli events` prints what the browser finds, as it comes: a line per transaction and an
// indented line per event (position, time, GTID, type, table, rows), row images under it when asked;
// or one JSON object per event with its transaction's start.
#pragma once

#include <ostream>
#include <string>

#include "engine/browse/event_browser.h"

namespace syncscope::cli {

class EventsPrinter : public browse::BrowseSink {
public:
    enum class Format { Text, JsonLines };

    EventsPrinter(std::ostream& out, Format format, uint64_t maxTransactions)
        : out_(out), format_(format), maxTransactions_(maxTransactions) {}

    void transactionStarts(const browse::BrowsedTransaction& trx) override;
    void event(const browse::BrowsedTransaction& trx, browse::BrowsedEvent&& event) override;
    bool transactionEnds(const browse::BrowsedTransaction& trx) override;

private:
    void eventJson(const browse::BrowsedTransaction& trx, const browse::BrowsedEvent& event);

    std::ostream& out_;
    Format format_;
    uint64_t maxTransactions_;  // 0: no limit
    uint64_t printed_ = 0;
    std::string line_;
};

}  // namespace syncscope::cli
