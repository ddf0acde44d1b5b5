// One page of the event browser: the transactions from a start point a DBA typed, or the window around
// a point the GUI shows (a ruler marker, the failed event, a table point, a skip window's start).
// Plain C++ so that the GUI runs it on a worker thread and a test runs it directly.
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "engine/browse/binlog_history.h"
#include "engine/browse/browse_filter.h"
#include "engine/browse/browsed_event.h"
#include "engine/browse/event_browser.h"

namespace syncscope::browse {

struct PageRequest {
    std::string from;                   // a start point as typed (see start_point.h); used when `around` is empty
    std::optional<BrowsePoint> around;  // an event end the GUI shows: the page holds the transaction ending there
    BrowseFilter filter;
    size_t before = 50;  // transactions before the one around `around`
    size_t count = 250;  // transactions in the page (from `from`), or after the one around `around`
};

struct Page {
    std::vector<BrowsedTransaction> transactions;
    std::optional<size_t> target;  // the transaction asked for
    std::string note;              // what a time resolved to, or why the page is shorter than asked
    std::string error;             // set instead of transactions when the point was refused or reading failed
    BrowseProgress progress;
    bool cancelled = false;
};

// Never throws: errors come back in Page::error.
Page readPage(BinlogHistory& history, const PageRequest& request, const std::atomic<bool>* cancel = nullptr);

}  // namespace syncscope::browse
