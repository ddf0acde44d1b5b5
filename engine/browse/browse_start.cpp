#include "engine/browse/browse_start.h"

#include "engine/binlog/location.h"

namespace syncscope::browse {

namespace {
constexpr uint64_t kFirstEventOffset = 4;
}

OpenedStart openFrom(BinlogHistory& history, const StartPoint& start, const std::atomic<bool>* cancel) {
    OpenedStart opened;
    PointResolver resolver(history, cancel);
    switch (start.kind) {
        case StartPoint::Kind::Beginning:
            opened.at = {history.files().front().file, kFirstEventOffset};
            break;
        case StartPoint::Kind::Position:
            opened.at = start.position;
            if (opened.at.file.empty()) {
                opened.at.file = history.files().front().file;
            }
            resolver.checkTransactionBoundary(opened.at);
            break;
        case StartPoint::Kind::Gtid:
            if (binlog::detectGtidFlavor(start.gtid) != binlog::GtidFlavor::MariaDB) {
                throw BrowseError("'" + start.gtid +
                                  "': only a MariaDB GTID position can be a start point; for MySQL " +
                                  "give FILE:POS or a time");
            }
            resolver.checkGtidInHistory(start.gtid);
            opened.stream = history.openAfterGtid(start.gtid);
            if (!opened.stream) {
                opened.at = {history.files().front().file, kFirstEventOffset};
                opened.skipUpToGtid = start.gtid;
            }
            break;
        case StartPoint::Kind::Time:
            opened.resolvedTime = resolver.firstTransactionAtOrAfter(start.time);
            opened.at = opened.resolvedTime->start;
            break;
    }
    if (!opened.stream) {
        opened.stream = history.openAt(opened.at);
    }
    return opened;
}

}  // namespace syncscope::browse
