#include "engine/multisource/paused_checkpoint.h"

#include <cppconn/connection.h>

#include <map>

#include "engine/apply/downstream_connection.h"
#include "engine/binlog/position_axis.h"
#include "engine/checkpoint/checkpoint_table.h"

namespace syncscope::multisource {

namespace {

task::PointView pointOf(const binlog::Location& location, const binlog::PositionAxis& axis) {
    task::PointView point;
    if (!location.position().isEmpty()) {
        point.file = location.position().file();
        point.pos = location.position().offset();
        point.axis = axis.bytesOf(location.position());
    }
    point.gtid = location.gtidText();
    return point;
}

binlog::PositionAxis axisOf(const task::StatusSnapshot& snapshot) {
    std::vector<binlog::BinlogFileSize> files;
    for (const task::BinlogFileSize& file : snapshot.upstreamFiles) {
        files.push_back({file.name, file.size});
    }
    try {
        return binlog::PositionAxis(std::move(files));
    } catch (const std::exception&) {
        return {};  // a file list the axis cannot order: the points are shown without a place on the ruler
    }
}

}  // namespace

PausedCheckpoint readPausedCheckpoint(const task::TaskSetup& setup) {
    PausedCheckpoint read;
    try {
        std::unique_ptr<sql::Connection> connection = apply::connectDownstream(setup.downstream);
        checkpoint::CheckpointTable table(*connection, setup.metaSchema, setup.taskName);
        read.persisted = table.load(setup.sourceId);
    } catch (const std::exception& e) {
        read.error = "its checkpoint could not be read from `" + setup.metaSchema + "`.`" +
                     checkpoint::checkpointTableName(setup.taskName) + "` on " + setup.downstream.describe() + ": " +
                     e.what();
    }
    return read;
}

std::string describePausedCheckpoint(const PausedCheckpoint& read, const task::TaskSetup& setup) {
    if (!read.error.empty()) {
        return read.error;
    }
    if (!read.persisted.hasGlobalRow) {
        return "no checkpoint persisted yet: a resume starts at the task's meta (" +
               (setup.metaBinlogName.empty() ? std::string("the upstream's position")
                                             : setup.metaBinlogName + ":" + std::to_string(setup.metaBinlogPos)) +
               ")";
    }
    return "checkpoint at " + read.persisted.globalPoint.toString() + ", where a resume starts (read from `" +
           setup.metaSchema + "`.`" + checkpoint::checkpointTableName(setup.taskName) + "` while paused)";
}

std::shared_ptr<task::StatusSnapshot> withPersistedPoints(const task::StatusSnapshot& snapshot,
                                                          const checkpoint::PersistedCheckpoint& persisted) {
    auto shown = std::make_shared<task::StatusSnapshot>(snapshot);
    const binlog::PositionAxis axis = axisOf(snapshot);
    shown->globalPersisted = pointOf(persisted.globalPoint, axis);
    shown->globalInMemory = shown->globalPersisted;
    shown->exitSafe = pointOf(persisted.exitSafePoint, axis);
    std::map<std::pair<std::string, std::string>, size_t> known;
    for (size_t i = 0; i < shown->tables.size(); ++i) {
        known[{shown->tables[i].schema, shown->tables[i].table}] = i;
    }
    for (const checkpoint::TablePoint& point : persisted.tablePoints) {
        auto found = known.find({point.table.schema, point.table.table});
        if (found == known.end()) {
            task::TablePointView added;
            added.schema = point.table.schema;
            added.table = point.table.table;
            shown->tables.push_back(std::move(added));
            found =
                known.emplace(std::make_pair(point.table.schema, point.table.table), shown->tables.size() - 1).first;
        }
        task::TablePointView& view = shown->tables[found->second];
        view.persisted = pointOf(point.location, axis);
        view.inMemory = view.persisted;
        view.aheadOfGlobal = point.location.compare(persisted.globalPoint) == binlog::PositionOrder::After;
        view.bytesFromGlobal = axis.distance(persisted.globalPoint.position(), point.location.position()).value_or(0);
    }
    return shown;
}

}  // namespace syncscope::multisource
