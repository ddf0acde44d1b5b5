// The event browser's Downstream column row by row: for the transactions one page shows, each row's final
// image in them checked against the downstream (already there and equal, missing, different, deleted but
// still there), as a skip's preview checks its window (verify::WindowPreviewer), and counted per transaction.
// Bounded by the page and read only when asked: the windows read are the page's runs of adjacent
// transactions (one run for an unfiltered page, one per transaction for a key history spread over files).
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "engine/browse/browse_filter.h"
#include "engine/browse/browsed_event.h"
#include "engine/verify/window_preview.h"

namespace syncscope::preview {

// One row checked at its last change on the page.
struct CheckedRow {
    std::string table;  // "db.t" (upstream name)
    std::string key;    // the key values, comma-separated as the browser's key filter takes them
    verify::WindowRowState state = verify::WindowRowState::Equal;
    std::vector<std::string> differingColumns;  // or why it could not be compared
    std::string text() const;                   // "db.t (7) missing"
};

// The rows whose last change on the page is in one transaction (a row changed by several transactions of the
// page is checked once, at its last change: only that image can be the downstream's).
struct TransactionRowCheck {
    size_t equal = 0;
    size_t missing = 0;
    size_t different = 0;
    size_t notDeleted = 0;
    std::vector<CheckedRow> rows;  // in page order

    size_t checkedRows() const { return equal + missing + different + notDeleted; }
    // "2 equal, 1 missing"; "" when no row of it was checked.
    std::string summary() const;
};

struct PageRowCheck {
    std::vector<TransactionRowCheck> transactions;  // one per page transaction (markers: empty)
    std::vector<verify::WindowTableProblem> problems;
    size_t windowsRead = 0;
    uint64_t eventsRead = 0;
};

// A page's window may hold at most this many events (a bulk transaction beyond it is refused by name).
inline constexpr uint64_t kMaxEventsPerPageWindow = 500'000;

// `request`: the servers, route and replicated tables (windowRequestFor(setup) for a task); the windows are
// set here. Only rows `filter` shows (its table and key) are counted. Throws Error (or VerifyError) naming the
// window when one cannot be read: files that are no binlog (local files), purged, or too many events.
PageRowCheck checkPageRows(verify::WindowPreviewRequest request,
                           const std::vector<browse::BrowsedTransaction>& transactions,
                           const browse::BrowseFilter& filter, const std::atomic<bool>* cancel = nullptr);

}  // namespace syncscope::preview
