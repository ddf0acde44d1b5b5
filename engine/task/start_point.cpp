#include "engine/task/start_point.h"

#include <spdlog/spdlog.h>

#include "engine/common/error.h"
#include "engine/source/upstream_connection.h"

namespace syncscope::task {

using binlog::Location;

Location chooseStartPoint(const TaskSetup& setup, checkpoint::CheckpointTable& table,
                          checkpoint::PersistedCheckpoint& persisted,
                          const std::function<void(const Location&)>& check) {
    persisted = table.load(setup.sourceId);

    Location start;
    if (persisted.hasGlobalRow) {
        start = persisted.globalPoint;
        spdlog::info("task {}: resuming from the persisted global point {}", setup.taskName, start.toString());
        if (check) {
            check(start);
        }
    } else {
        if (!setup.metaBinlogName.empty() || !setup.metaBinlogGtid.empty()) {
            start = Location::fromParts(setup.metaBinlogName, setup.metaBinlogPos,
                                        setup.enableGtid ? setup.metaBinlogGtid : "");
            spdlog::info("task {}: no checkpoint yet; starting from the task's meta {}", setup.taskName,
                         start.toString());
        } else {
            source::UpstreamConnection upstream(setup.upstream);
            auto master = upstream.query("SHOW MASTER STATUS");
            if (master.empty() || master.front().size() < 2 || !master.front()[0] || !master.front()[1]) {
                throw Error("upstream " + setup.upstream.describe() +
                            ": SHOW MASTER STATUS returned nothing; is the binary log on?");
            }
            std::string gtid =
                setup.enableGtid ? upstream.queryValue("SELECT @@GLOBAL.gtid_binlog_pos").value_or("") : "";
            start = Location::fromParts(*master.front()[0], std::stoull(*master.front()[1]), gtid);
            spdlog::warn(
                "task {}: NO CHECKPOINT AND NO META: starting from the upstream's CURRENT position {}; "
                "everything written upstream before it is not replicated",
                setup.taskName, start.toString());
        }
        if (check) {
            check(start);
        }
        // Nothing is applied yet, so persisting the start covers no event.
        table.flush(setup.sourceId, {}, start, start);
        persisted.globalPoint = start;
        persisted.exitSafePoint = start;
    }
    return start;
}

std::optional<Location> upstreamEndNow(const TaskSetup& setup) {
    try {
        source::UpstreamConnection upstream(setup.upstream);
        auto master = upstream.query("SHOW MASTER STATUS");
        if (!master.empty() && master.front().size() >= 2 && master.front()[0] && master.front()[1]) {
            return Location(binlog::BinlogPosition(*master.front()[0], std::stoull(*master.front()[1])));
        }
    } catch (const source::UpstreamError& e) {
        spdlog::warn("task {}: cannot read the upstream's end of binlog ({})", setup.taskName, e.what());
    }
    return std::nullopt;
}

}  // namespace syncscope::task
