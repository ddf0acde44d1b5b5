// `syncscope-cli events --downstream`: the rows of the transactions printed, each checked at its last change
// against the downstream (engine/preview/page_row_check.h), printed after them. The printed transactions are
// kept (without their events) for the check, so the command is bounded: a page of them at a time.
#pragma once

#include <ostream>
#include <vector>

#include "engine/browse/event_browser.h"
#include "engine/common/server_settings.h"

namespace syncscope::cli {

// Hands every transaction to `printer` and keeps its positions for the check.
class DownstreamCheckSink : public browse::BrowseSink {
public:
    explicit DownstreamCheckSink(browse::BrowseSink& printer) : printer_(printer) {}

    void transactionStarts(const browse::BrowsedTransaction& trx) override { printer_.transactionStarts(trx); }
    void event(const browse::BrowsedTransaction& trx, browse::BrowsedEvent&& event) override {
        printer_.event(trx, std::move(event));
    }
    bool transactionEnds(const browse::BrowsedTransaction& trx) override;

    // Checks the kept transactions' rows (those `filter` shows) and prints the states: a "# downstream" block
    // in text, one {"downstream_check": ...} object per transaction with rows in JSON. Throws Error.
    void checkAndPrint(const ServerSettings& upstream, const ServerSettings& downstream,
                       const browse::BrowseFilter& filter, bool json, std::ostream& out) const;

private:
    browse::BrowseSink& printer_;
    std::vector<browse::BrowsedTransaction> shown_;
};

}  // namespace syncscope::cli
