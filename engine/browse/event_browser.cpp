#include "engine/browse/event_browser.h"

#include "engine/binlog/mariadb_gtid_position.h"

namespace syncscope::browse {

namespace {

// Markers between transactions (FORMAT_DESCRIPTION, ROTATE, GTID_LIST, ...) are listed as groups of
// their own, and only when nothing narrows the list.
bool showsMarkers(const BrowseFilter& filter) {
    return !filter.selectsEvents() && !filter.gtidDomain && !filter.fromTime && !filter.toTime;
}

}  // namespace

size_t EventBrowser::fileIndex(const std::string& file) const {
    for (size_t i = 0; i < fileOrder_.size(); ++i) {
        if (fileOrder_[i].file == file) {
            return i;
        }
    }
    return fileOrder_.size();
}

bool EventBrowser::reachedStop(const BrowsePoint& at, const BrowseRange& range) const {
    if (!range.stopAt) {
        return false;
    }
    size_t here = fileIndex(at.file);
    size_t stop = fileIndex(range.stopAt->file);
    if (here == fileOrder_.size() || stop == fileOrder_.size()) {
        // Files the list does not have (a server rotated since): numeric suffixes decide.
        if (!binlog::BinlogPosition::isBinlogFileName(at.file) ||
            !binlog::BinlogPosition::isBinlogFileName(range.stopAt->file)) {
            return at.file == range.stopAt->file && at.offset >= range.stopAt->offset;
        }
        return binlog::BinlogPosition(at.file, at.offset) >=
               binlog::BinlogPosition(range.stopAt->file, range.stopAt->offset);
    }
    return here > stop || (here == stop && at.offset >= range.stopAt->offset);
}

BrowseOutcome EventBrowser::browse(EventStream& stream, BrowseSink& sink, const BrowseRange& range) {
    BrowseOutcome outcome;
    BrowseProgress& progress = outcome.progress;
    std::optional<binlog::GtidPosition> skipUpTo;
    if (!range.skipUpToGtid.empty()) {
        skipUpTo = binlog::GtidPosition::parse(range.skipUpToGtid);
    }
    TransactionBoundaries boundaries;
    BrowsedTransaction trx;
    bool open = false;
    bool accepted = false;
    bool shown = false;

    // False when the sink wants no more.
    auto finish = [&](bool complete) {
        open = false;
        trx.complete = complete;
        if (!shown) {
            return true;
        }
        ++progress.transactionsShown;
        return sink.transactionEnds(trx);
    };

    std::vector<binlog::Event> events;
    for (;;) {
        if (range.cancel != nullptr && range.cancel->load()) {
            if (open) {
                finish(false);
            }
            outcome.end = BrowseOutcome::End::Cancelled;
            return outcome;
        }
        if (!stream.next(events)) {
            break;
        }
        for (const binlog::Event& event : events) {
            ++progress.eventsRead;
            progress.at = {std::string(event.file), event.endPos};
            if (range.progressEvery != 0 && progress.eventsRead % range.progressEvery == 0 && range.onProgress) {
                range.onProgress(progress);
            }
            auto step = boundaries.step(event);
            bool starts =
                step == TransactionBoundaries::Step::Starts || step == TransactionBoundaries::Step::StartsAndEnds;
            bool marker = step == TransactionBoundaries::Step::Outside;
            if (starts || marker) {
                if (open && !finish(false)) {
                    outcome.end = BrowseOutcome::End::SinkStopped;
                    return outcome;
                }
                if (reachedStop({std::string(event.file), event.pos}, range)) {
                    outcome.end = BrowseOutcome::End::StopPoint;
                    return outcome;
                }
                trx = BrowsedTransaction{};
                trx.file = std::string(event.file);
                trx.pos = event.pos;
                trx.timestamp = event.header.timestamp;
                trx.isMarker = marker;
                open = true;
                shown = false;
                if (marker) {
                    accepted = showsMarkers(filter_);
                } else {
                    ++progress.transactionsRead;
                    if (const auto* gtid = event.as<binlog::MariaDbGtidEvent>()) {
                        trx.gtid = gtid->text();
                        if (skipUpTo) {
                            auto seen = skipUpTo->forDomain(gtid->domainId);
                            accepted = !(seen && gtid->sequence <= seen->sequence);
                        } else {
                            accepted = true;
                        }
                    } else if (const auto* mysqlGtid = event.as<binlog::MySqlGtidEvent>()) {
                        trx.gtid = mysqlGtid->anonymous ? std::string() : mysqlGtid->text();
                        accepted = true;
                    } else {
                        accepted = true;
                    }
                    accepted = accepted && filter_.acceptsTransaction(trx);
                }
            }
            if (!open) {
                continue;  // the rest of a transaction that began before the start
            }
            ++trx.eventCount;
            if (const auto* rows = event.as<binlog::RowsEvent>()) {
                trx.rowCount += rows->rowCount();
            }
            trx.endFile.assign(event.file);  // keeps its buffer: no allocation per event
            trx.endPos = event.endPos;
            if (accepted) {
                BrowsedEvent shownEvent;
                if (filter_.describe(event, shownEvent, keyMatcher_ ? &*keyMatcher_ : nullptr)) {
                    shownEvent.gtid = trx.gtid;
                    if (!shown) {
                        sink.transactionStarts(trx);
                        shown = true;
                    }
                    ++trx.matchedEvents;
                    sink.event(trx, std::move(shownEvent));
                }
            }
            bool ends = marker || step == TransactionBoundaries::Step::Ends ||
                        step == TransactionBoundaries::Step::StartsAndEnds;
            if (ends && !finish(true)) {
                outcome.end = BrowseOutcome::End::SinkStopped;
                return outcome;
            }
        }
    }
    if (open) {
        finish(false);
    }
    outcome.end = BrowseOutcome::End::HistoryEnd;
    return outcome;
}

void TransactionCollector::transactionStarts(const BrowsedTransaction& trx) {
    transactions_.push_back(trx);
}

void TransactionCollector::event(const BrowsedTransaction&, BrowsedEvent&& event) {
    BrowsedTransaction& current = transactions_.back();
    if (current.events.size() >= maxEvents_) {
        current.eventsCapped = true;
        return;
    }
    current.events.push_back(std::move(event));
}

bool TransactionCollector::transactionEnds(const BrowsedTransaction& trx) {
    BrowsedTransaction& current = transactions_.back();
    std::vector<BrowsedEvent> events = std::move(current.events);
    bool capped = current.eventsCapped;
    current = trx;
    current.events = std::move(events);
    current.eventsCapped = capped;
    return !full();
}

}  // namespace syncscope::browse
