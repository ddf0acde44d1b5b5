#include "engine/browse/browse_page.h"

#include "engine/browse/browse_start.h"
#include "engine/browse/browse_time.h"
#include "engine/browse/point_window.h"

namespace syncscope::browse {

namespace {
constexpr uint64_t kFirstEventOffset = 4;
}

Page readPage(BinlogHistory& history, const PageRequest& request, const std::atomic<bool>* cancel) {
    Page page;
    try {
        auto files = history.files();
        EventBrowser browser(request.filter, files);
        BrowseRange range;
        range.cancel = cancel;
        BrowseOutcome outcome;
        if (request.around) {
            // Points the GUI shows are event ends: read the point's file from its start, keep the window.
            auto stream = history.openAt({request.around->file, kFirstEventOffset});
            PointWindowCollector collector(*request.around, files, request.before, request.count);
            outcome = browser.browse(*stream, collector, range);
            page.transactions = collector.take();
            page.target = collector.targetIndex();
            if (!page.target) {
                page.note = "nothing shown ends at or after " + request.around->toString();
            }
        } else {
            auto opened = openFrom(history, parseStartPoint(request.from), cancel);
            if (opened.resolvedTime) {
                const auto& found = *opened.resolvedTime;
                page.note = request.from + ": the first transaction at or after it is " +
                            (found.gtid.empty() ? std::string() : found.gtid + " ") + "at " + found.start.toString() +
                            " (" + formatLocalTime(found.timestamp) + ")";
            }
            range.skipUpToGtid = opened.skipUpToGtid;
            TransactionCollector collector(request.count);
            outcome = browser.browse(*opened.stream, collector, range);
            page.transactions = std::move(collector.transactions());
            if (!page.transactions.empty()) {
                page.target = 0;
            }
        }
        page.progress = outcome.progress;
        page.cancelled = outcome.end == BrowseOutcome::End::Cancelled;
    } catch (const std::exception& e) {
        page.transactions.clear();
        page.target.reset();
        page.error = e.what();
    }
    return page;
}

}  // namespace syncscope::browse
