#include "engine/task/resume_point_writer.h"

#include <cppconn/connection.h>

#include "engine/apply/downstream_connection.h"
#include "engine/binlog/location.h"
#include "engine/checkpoint/applied_marks_store.h"
#include "engine/checkpoint/checkpoint_table.h"
#include "engine/checkpoint/online_ddl_store.h"
#include "engine/source/upstream_connection.h"

#include <algorithm>

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

std::string checkResumeTargetUpstream(const TaskSetup& setup, const ResumeTarget& target) {
    try {
        source::UpstreamConnection upstream(setup.upstream);
        auto files = upstream.query("SHOW BINARY LOGS");
        if (files.empty()) {
            return "the upstream " + setup.upstream.describe() + " lists no binary logs (is log_bin on?)";
        }
        auto name = [](const auto& row) { return row.empty() || !row[0] ? std::string() : *row[0]; };
        std::string has = "it has " + name(files.front()) + " to " + name(files.back());
        if (!target.file.empty()) {
            auto it =
                std::find_if(files.begin(), files.end(), [&](const auto& row) { return name(row) == target.file; });
            if (it == files.end()) {
                return "binlog file " + target.file + " is not on the upstream (purged, or never written): " + has;
            }
            uint64_t size = it->size() > 1 && (*it)[1] ? std::stoull(*(*it)[1]) : 0;
            if (target.pos > size) {
                return "position " + std::to_string(target.pos) + " is past the end of " + target.file + " (" +
                       std::to_string(size) + " bytes on the upstream)";
            }
        }
        if (!target.gtid.empty() && binlog::detectGtidFlavor(target.gtid) == binlog::GtidFlavor::MariaDB) {
            auto wanted = binlog::GtidPosition::parse(target.gtid);
            auto current =
                binlog::GtidPosition::parse(upstream.queryValue("SELECT @@GLOBAL.gtid_binlog_pos").value_or(""));
            for (const auto& [domain, gtid] : wanted.byDomain()) {
                auto have = current.forDomain(domain);
                if (!have) {
                    return "GTID domain " + std::to_string(domain) + " of " + target.gtid +
                           " is not in the upstream's history (gtid_binlog_pos " + current.toString() + ")";
                }
                if (gtid.sequence > have->sequence) {
                    return "GTID " + target.gtid + " is beyond the upstream's history (gtid_binlog_pos " +
                           current.toString() + ")";
                }
            }
            auto oldest = binlog::GtidPosition::parse(
                upstream.queryValue("SELECT BINLOG_GTID_POS('" + name(files.front()) + "', 4)").value_or(""));
            if (wanted.compare(oldest) == binlog::PositionOrder::Before) {
                return "GTID " + target.gtid + " lies in purged binlog files: the oldest file " + name(files.front()) +
                       " starts after " + oldest.toString();
            }
        }
    } catch (const std::exception& e) {
        return "cannot check the target against the upstream " + setup.upstream.describe() + ": " + e.what();
    }
    return {};
}

binlog::Location writeResumePoint(const TaskSetup& setup, const ResumeTarget& target) {
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
    table.replaceWithGlobalPoint(setup.sourceId, point, exitSafe);
    return before.globalPoint;
}

void removeTaskMeta(const TaskSetup& setup) {
    auto connection = apply::connectDownstream(setup.downstream);
    checkpoint::CheckpointTable table(*connection, setup.metaSchema, setup.taskName);
    table.removeMeta(setup.sourceId);
    checkpoint::AppliedMarksStore(*connection, setup.metaSchema, setup.taskName).remove(setup.sourceId);
    checkpoint::OnlineDdlStore(*connection, setup.metaSchema, setup.taskName).remove(setup.sourceId);
}

}  // namespace syncscope::task
