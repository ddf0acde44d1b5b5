#include "engine/preview/stop_point_plan.h"

#include "engine/binlog/location.h"
#include "engine/binlog/mariadb_gtid_position.h"
#include "engine/browse/server_binlog_history.h"
#include "engine/browse/transaction_boundaries.h"
#include "engine/common/error.h"
#include "engine/task/stop_point.h"

namespace syncscope::preview {

StopPointPlan planStopPoint(const ServerSettings& upstream, const task::PointView& applied, const std::string& text,
                            const std::atomic<bool>* cancel) {
    StopPointPlan plan;
    task::StopPoint point;
    try {
        point = task::StopPoint::parse(text);
    } catch (const std::exception& e) {
        plan.refusal = e.what();
        return plan;
    }
    plan.described = point.describe();
    if (!applied.known()) {
        plan.refusal = "where the task stands is not known yet (no applied point): start the task first";
        return plan;
    }
    const binlog::Location standsAt = binlog::Location::fromParts(applied.file, applied.pos, applied.gtid);
    if (point.behind(standsAt)) {
        plan.refusal = plan.described + " is already behind the task: it has applied up to " + standsAt.toString() +
                       "; choose a later point";
        return plan;
    }
    // The GTID state after each transaction, from the task's own (MariaDB GTIDs; a MySQL set is not
    // followed here: a MySQL GTID point is then placed by the position only when reached).
    binlog::GtidPosition gtids;
    if (binlog::detectGtidFlavor(applied.gtid) == binlog::GtidFlavor::MariaDB) {
        gtids = binlog::GtidPosition::parse(applied.gtid);
    }
    browse::ServerBinlogHistory history(upstream);
    auto stream = history.openAt({applied.file, applied.pos});
    browse::TransactionBoundaries boundaries;
    std::vector<binlog::Event> events;
    uint64_t eventsRead = 0;
    uint64_t rowChanges = 0;  // of the transaction being read
    std::optional<binlog::Gtid> gtid;
    while ((cancel == nullptr || !cancel->load()) && stream->next(events)) {
        for (const auto& event : events) {
            if (++eventsRead > kStopPlanMaxEvents) {
                plan.readLimitReached = true;
                return plan;
            }
            const auto step = boundaries.step(event);
            const bool starts = step == browse::TransactionBoundaries::Step::Starts ||
                                step == browse::TransactionBoundaries::Step::StartsAndEnds;
            const bool ends = step == browse::TransactionBoundaries::Step::Ends ||
                              step == browse::TransactionBoundaries::Step::StartsAndEnds;
            if (starts) {
                if (point.reachedBefore(binlog::BinlogPosition(std::string(event.file), event.pos),
                                        event.header.timestamp)) {
                    plan.found = true;
                    plan.pauseBefore = true;
                    plan.at = {std::string(event.file), event.pos};
                    plan.timestamp = event.header.timestamp;
                    if (const auto* mariaDb = event.as<binlog::MariaDbGtidEvent>()) {
                        plan.gtid = mariaDb->text();
                    }
                    return plan;
                }
                rowChanges = 0;
                gtid.reset();
                if (const auto* mariaDb = event.as<binlog::MariaDbGtidEvent>()) {
                    gtid = binlog::Gtid{mariaDb->domainId, mariaDb->serverId, mariaDb->sequence};
                    plan.gtid = mariaDb->text();
                    plan.timestamp = event.header.timestamp;
                }
            }
            if (const auto* rows = event.as<binlog::RowsEvent>()) {
                rowChanges += rows->rowCount();
            }
            if (ends) {
                ++plan.transactions;
                plan.rowChanges += rowChanges;
                if (gtid) {
                    gtids.update(*gtid);
                }
                const binlog::Location end =
                    binlog::Location::fromParts(event.file, event.endPos, gtids.isEmpty() ? "" : gtids.toString());
                if (point.reachedAfter(end)) {
                    plan.found = true;
                    plan.at = {std::string(event.file), event.endPos};
                    if (!gtid) {
                        plan.gtid.clear();
                        plan.timestamp = event.header.timestamp;
                    }
                    return plan;
                }
            }
        }
    }
    if (cancel != nullptr && cancel->load()) {
        throw Error("reading where " + plan.described + " lies was cancelled");
    }
    return plan;  // not written yet: the task pauses when it gets there
}

}  // namespace syncscope::preview
