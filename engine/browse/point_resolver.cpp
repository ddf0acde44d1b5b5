#include "engine/browse/point_resolver.h"

#include <algorithm>
#include <optional>

#include "engine/binlog/location.h"
#include "engine/binlog/mariadb_gtid_position.h"
#include "engine/browse/browse_time.h"
#include "engine/browse/transaction_boundaries.h"

namespace syncscope::browse {

namespace {

constexpr uint64_t kFirstEventOffset = 4;  // after the binlog magic

std::string gtidOf(const binlog::Event& event) {
    if (const auto* gtid = event.as<binlog::MariaDbGtidEvent>()) {
        return gtid->text();
    }
    if (const auto* gtid = event.as<binlog::MySqlGtidEvent>()) {
        return gtid->anonymous ? std::string() : gtid->text();
    }
    return {};
}

std::string describeTransaction(const FoundTransaction& trx) {
    return (trx.gtid.empty() ? std::string("the transaction") : "transaction " + trx.gtid) + " at " +
           trx.start.toString() + " (" + formatLocalTime(trx.timestamp) + ")";
}

}  // namespace

PointResolver::FileStart PointResolver::fileStart(const std::string& file) {
    ++filesProbed_;
    auto stream = history_.openHeadersAt({file, kFirstEventOffset});
    TransactionBoundaries boundaries;
    FileStart start;
    std::vector<binlog::Event> events;
    while (!cancelled() && stream->next(events)) {
        for (const auto& event : events) {
            if (event.file != file) {
                return start;  // a file without transactions
            }
            if (start.firstEventTime == 0) {
                start.firstEventTime = event.header.timestamp;
                if (start.firstEventTime != 0) {
                    return start;  // when the file was begun: one header is enough
                }
            }
            auto step = boundaries.step(event);
            if (step == TransactionBoundaries::Step::Starts || step == TransactionBoundaries::Step::StartsAndEnds) {
                start.firstTransactionTime = event.header.timestamp;
                return start;
            }
        }
    }
    return start;
}

// Every transaction of a file was written before the next file was begun, so a transaction at or after
// a time lies in the last file begun before it, or later. A file begun at time 0 (never written so by
// MariaDB or MySQL) is placed by its first transaction.
uint32_t PointResolver::FileStart::searchKey() const {
    return firstEventTime != 0 ? firstEventTime : firstTransactionTime.value_or(0);
}

FoundTransaction PointResolver::firstTransactionAtOrAfter(uint32_t time) {
    filesProbed_ = 0;
    auto files = history_.files();
    FileStart oldest = fileStart(files.front().file);
    uint32_t oldestStart = oldest.searchKey();
    if (time < oldestStart) {
        throw BrowseError(formatLocalTime(time) + " is before the oldest binlog of " + history_.describe() + ": " +
                          files.front().file + " begins at " + formatLocalTime(oldestStart) +
                          "; what was written earlier was purged (or never logged)");
    }
    // The last file begun before the time holds the answer, or a file after it does. (Strictly before:
    // the transactions of the second a file was begun in can be at the end of the file before it.)
    size_t low = 0;
    if (oldest.searchKey() < time) {
        size_t high = files.size() - 1;
        while (low < high && !cancelled()) {
            size_t middle = (low + high + 1) / 2;
            if (fileStart(files[middle].file).searchKey() < time) {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
    }
    FoundTransaction found;
    std::optional<FoundTransaction> last;  // the newest transaction seen, for the message
    auto stream = history_.openHeadersAt({files[low].file, kFirstEventOffset});
    TransactionBoundaries boundaries;
    bool foundStart = false;
    std::vector<binlog::Event> events;
    while (!cancelled() && stream->next(events)) {
        for (const auto& event : events) {
            ++found.eventsScanned;
            auto step = boundaries.step(event);
            bool starts =
                step == TransactionBoundaries::Step::Starts || step == TransactionBoundaries::Step::StartsAndEnds;
            bool ends = step == TransactionBoundaries::Step::Ends || step == TransactionBoundaries::Step::StartsAndEnds;
            if (starts && !foundStart) {
                FoundTransaction candidate;
                candidate.start = {std::string(event.file), event.pos};
                candidate.timestamp = event.header.timestamp;
                candidate.gtid = gtidOf(event);
                if (candidate.timestamp >= time) {
                    candidate.eventsScanned = found.eventsScanned;
                    found = candidate;
                    foundStart = true;
                } else {
                    last = candidate;
                }
            }
            if (ends && foundStart) {
                found.end = {std::string(event.file), event.endPos};
                found.filesProbed = filesProbed_;
                return found;
            }
        }
    }
    if (cancelled()) {
        throw BrowseError("finding " + formatLocalTime(time) + " was cancelled");
    }
    if (foundStart) {
        throw BrowseError("the first transaction at or after " + formatLocalTime(time) + ", " +
                          describeTransaction(found) + ", has not ended yet in " + history_.describe());
    }
    if (!last) {
        last = lastTransactionBefore(files, low);
    }
    throw BrowseError(
        formatLocalTime(time) + " is after the newest transaction of " + history_.describe() +
        (last ? ": the last one is " + describeTransaction(*last) : ": there is none from " + files[low].file + " on"));
}

std::optional<FoundTransaction> PointResolver::lastTransactionBefore(const std::vector<binlog::BinlogFileSize>& files,
                                                                     size_t fileIndex) {
    constexpr size_t kLookBackFiles = 3;  // for a message only: files without transactions are rare
    for (size_t i = fileIndex; i > 0 && fileIndex - i < kLookBackFiles && !cancelled(); --i) {
        const std::string& file = files[i - 1].file;
        auto stream = history_.openHeadersAt({file, kFirstEventOffset});
        TransactionBoundaries boundaries;
        std::optional<FoundTransaction> last;
        std::vector<binlog::Event> events;
        bool done = false;
        while (!done && stream->next(events)) {
            for (const auto& event : events) {
                if (event.file != file) {
                    done = true;
                    break;
                }
                auto step = boundaries.step(event);
                if (step == TransactionBoundaries::Step::Starts || step == TransactionBoundaries::Step::StartsAndEnds) {
                    last = FoundTransaction{};
                    last->start = {file, event.pos};
                    last->timestamp = event.header.timestamp;
                    last->gtid = gtidOf(event);
                }
            }
        }
        if (last) {
            return last;
        }
    }
    return std::nullopt;
}

void PointResolver::checkTransactionBoundary(const BrowsePoint& point) {
    auto files = history_.files();
    bool listed = false;
    for (const auto& file : files) {
        listed = listed || file.file == point.file;
    }
    if (!listed) {
        throw BrowseError(point.toString() + ": " + history_.describe() + " has no file '" + point.file +
                          "' (purged, or never written); it has " + files.front().file + " to " + files.back().file);
    }
    if (point.offset < kFirstEventOffset) {
        throw BrowseError(point.toString() + ": events start at offset 4 or later");
    }
    auto stream = history_.openHeadersAt({point.file, kFirstEventOffset});
    TransactionBoundaries boundaries;
    FoundTransaction open;
    bool inside = false;  // the point fell inside `open`
    uint64_t lastEnd = kFirstEventOffset;
    uint64_t lastStart = 0;
    std::vector<binlog::Event> events;
    while (!cancelled() && stream->next(events)) {
        for (const auto& event : events) {
            if (event.file != point.file) {
                break;
            }
            if (!inside && event.pos == point.offset) {
                if (!boundaries.inTransaction()) {
                    return;
                }
                inside = true;
            } else if (!inside && event.pos > point.offset) {
                throw BrowseError(point.toString() + " is not where an event starts: the events around it start at " +
                                  point.file + ":" + std::to_string(lastStart) + " and " + point.file + ":" +
                                  std::to_string(event.pos));
            }
            auto step = boundaries.step(event);
            if (step == TransactionBoundaries::Step::Starts || step == TransactionBoundaries::Step::StartsAndEnds) {
                open = FoundTransaction{};
                open.start = {point.file, event.pos};
                open.timestamp = event.header.timestamp;
                open.gtid = gtidOf(event);
            }
            if (inside && step == TransactionBoundaries::Step::Ends) {
                throw BrowseError(point.toString() + " is in the middle of " + describeTransaction(open) +
                                  ", which ends at " + point.file + ":" + std::to_string(event.endPos) +
                                  ": starting there would apply half of it; use " + open.start.toString() +
                                  " (from its start) or " + point.file + ":" + std::to_string(event.endPos) +
                                  " (after it)");
            }
            lastEnd = event.endPos;
            lastStart = event.pos;
        }
        if (!events.empty() && events.front().file != point.file) {
            break;
        }
    }
    if (inside) {
        throw BrowseError(point.toString() + " is in the middle of " + describeTransaction(open) +
                          ", which has not ended yet; use " + open.start.toString());
    }
    if (point.offset == lastEnd && !boundaries.inTransaction()) {
        return;  // the end of the file (or of what is written)
    }
    if (point.offset > lastEnd) {
        throw BrowseError(point.toString() + " is beyond the end of " + point.file + ": its last event ends at " +
                          std::to_string(lastEnd));
    }
    throw BrowseError(point.toString() + " is in the middle of " + describeTransaction(open) +
                      ", which has not ended yet; use " + open.start.toString());
}

void PointResolver::checkGtidInHistory(const std::string& gtidPosition) {
    if (binlog::detectGtidFlavor(gtidPosition) != binlog::GtidFlavor::MariaDB) {
        return;
    }
    std::string currentText = history_.currentGtidPosition();
    if (currentText.empty()) {
        return;
    }
    auto wanted = binlog::GtidPosition::parse(gtidPosition);
    auto current = binlog::GtidPosition::parse(currentText);
    for (const auto& [domain, gtid] : wanted.byDomain()) {
        auto reached = current.forDomain(domain);
        if (!reached) {
            throw BrowseError("GTID " + gtid.toString() + " is not in the history of " + history_.describe() +
                              ": it never wrote domain " + std::to_string(domain) + " (its gtid_binlog_pos is " +
                              currentText + ")");
        }
        if (gtid.sequence > reached->sequence) {
            throw BrowseError("GTID " + gtid.toString() + " is not in the history of " + history_.describe() +
                              ": domain " + std::to_string(domain) + " has only reached " + reached->toString() +
                              " (gtid_binlog_pos " + currentText + ")");
        }
    }
    std::string oldestText = history_.oldestGtidPosition();
    if (oldestText.empty()) {
        return;
    }
    auto oldest = binlog::GtidPosition::parse(oldestText);
    for (const auto& [domain, gtid] : wanted.byDomain()) {
        auto first = oldest.forDomain(domain);
        if (first && gtid.sequence < first->sequence) {
            throw BrowseError("GTID " + gtid.toString() + " is in a purged binlog of " + history_.describe() +
                              ": the oldest file it still has begins after " + first->toString() +
                              " (BINLOG_GTID_POS " + oldestText + "); the transactions in between are gone");
        }
    }
}

}  // namespace syncscope::browse
