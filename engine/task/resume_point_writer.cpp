#include "engine/task/resume_point_writer.h"

#include <cppconn/connection.h>

#include "engine/apply/downstream_connection.h"
#include "engine/binlog/location.h"
#include "engine/checkpoint/checkpoint_table.h"

namespace syncscope::task {

namespace {

binlog::Location targetLocation(const ResumeTarget& target) {
    return binlog::Location::fromParts(target.file, target.file.empty() ? 0 : target.pos, target.gtid);
}

}  // namespace

std::string validateResumeTarget(const ResumeTarget& target) {
    if (target.file.empty() && target.gtid.empty()) {
        return "resume-from needs a binlog file and position, or a GTID set";
    }
    if (!target.file.empty() && target.pos < 4) {
        return "binlog position " + std::to_string(target.pos) + " is before the first event (4)";
    }
    try {
        targetLocation(target);
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

std::string describeResumeTarget(const ResumeTarget& target) {
    std::string text = target.file.empty() ? std::string() : target.file + ":" + std::to_string(target.pos);
    if (!target.gtid.empty()) {
        text += (text.empty() ? "gtid " : " gtid ") + target.gtid;
    }
    return text;
}

void writeResumePoint(const TaskSetup& setup, const ResumeTarget& target) {
    binlog::Location point = targetLocation(target);
    auto connection = apply::connectDownstream(setup.downstream);
    checkpoint::CheckpointTable table(*connection, setup.metaSchema, setup.taskName);
    table.ensureTable();
    checkpoint::PersistedCheckpoint before = table.load(setup.sourceId);
    // Safe mode must cover whatever was applied before: the later of the old exit-safe and global points.
    binlog::Location exitSafe = before.exitSafePoint;
    if (exitSafe.isEmpty() || before.globalPoint.compare(exitSafe) == binlog::PositionOrder::After) {
        exitSafe = before.globalPoint;
    }
    if (exitSafe.isEmpty() || point.compare(exitSafe) == binlog::PositionOrder::After) {
        exitSafe = point;
    }
    table.removeMeta(setup.sourceId);
    table.flush(setup.sourceId, {}, point, exitSafe);
}

void removeTaskMeta(const TaskSetup& setup) {
    auto connection = apply::connectDownstream(setup.downstream);
    checkpoint::CheckpointTable table(*connection, setup.metaSchema, setup.taskName);
    table.removeMeta(setup.sourceId);
}

}  // namespace syncscope::task
