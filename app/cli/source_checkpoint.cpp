#include "app/cli/source_checkpoint.h"

#include <algorithm>

#include "engine/multisource/shard_lock_table.h"

#include <cppconn/connection.h>

#include "engine/apply/downstream_connection.h"
#include "engine/binlog/position_axis.h"
#include "engine/config/source_config.h"
#include "engine/config/task_config.h"
#include "engine/inspect/checkpoint_inspector.h"
#include "engine/multisource/multi_source_plan.h"
#include "engine/source/upstream_connection.h"
#include "engine/task/task_setup_builder.h"

namespace syncscope::cli {

namespace {

Distance distanceBetween(const binlog::Location& from, const binlog::Location& to,
                         const std::vector<binlog::BinlogFileSize>& files) {
    Distance distance;
    if (from.position().isEmpty() || to.position().isEmpty()) {
        return distance;
    }
    distance.files =
        static_cast<int64_t>(to.position().fileNumber()) - static_cast<int64_t>(from.position().fileNumber());
    try {
        binlog::PositionAxis axis(files);
        distance.bytes = axis.distance(from.position(), to.position());
    } catch (const std::exception&) {
        // An odd file list: the file distance still holds, the byte distance stays unknown.
    }
    if (!distance.bytes && *distance.files == 0) {
        distance.bytes = static_cast<int64_t>(to.position().offset()) - static_cast<int64_t>(from.position().offset());
    }
    return distance;
}

}  // namespace

std::string Distance::text() const {
    if (!bytes && !files) {
        return "distance unknown";
    }
    std::string byteText = bytes ? std::to_string(*bytes) + " bytes" : "bytes unknown";
    std::string fileText = files ? std::to_string(*files) + " files" : "files unknown";
    return byteText + ", " + fileText + " behind the upstream";
}

std::string SourceCheckpoint::checkpointTable() const {
    return "`" + setup.metaSchema + "`.`" + setup.taskName + "_syncer_checkpoint`";
}

TaskSources loadTaskSources(const std::string& taskFile, const std::vector<std::string>& sourceFiles) {
    TaskSources sources;
    if (sourceFiles.size() == 1) {
        config::TaskConfig taskConfig = config::loadTaskConfig(taskFile);
        config::SourceConfig sourceConfig = config::loadSourceConfig(sourceFiles.front());
        sources.setups.push_back(task::makeTaskSetup(taskConfig, sourceConfig, sources.warnings));
        sources.sourceFiles = sourceFiles;
        return sources;
    }
    multisource::MultiSourcePlan plan = multisource::loadMultiSourcePlan(taskFile, sourceFiles);
    sources.setups = std::move(plan.subtasks);
    sources.sourceFiles = std::move(plan.sourceFiles);
    sources.warnings = std::move(plan.warnings);
    return sources;
}

SourceCheckpoint readSourceCheckpoint(const task::TaskSetup& setup, const std::string& sourceFile) {
    SourceCheckpoint report;
    report.setup = setup;
    report.sourceFile = sourceFile;
    inspect::InspectionRequest request;
    request.target = setup.downstream;
    request.metaSchema = setup.metaSchema;
    request.task = setup.taskName;
    request.upstream = setup.upstream;
    request.upstreamSourceId = setup.sourceId;
    try {
        report.inspection = inspect::inspectCheckpoints(request);
    } catch (const source::UpstreamError& e) {
        // The checkpoint is still worth showing when only the upstream is out of reach.
        report.upstreamError = e.what();
        request.upstream.reset();
        report.inspection = inspect::inspectCheckpoints(request);
    }
    const std::string expectedTable = setup.taskName + "_syncer_checkpoint";
    for (const auto& table : report.inspection.tables) {
        if (table.tableName != expectedTable) {
            continue;
        }
        report.checkpointProblem = table.problem;
        for (const auto& source : table.sources) {
            if (source.sourceId == setup.sourceId) {
                report.source = source;
            }
        }
    }
    try {
        auto connection = apply::connectDownstream(setup.downstream);
        report.onlineChanges =
            checkpoint::OnlineDdlStore(*connection, setup.metaSchema, setup.taskName).load(setup.sourceId);
        report.dmShardingGroups =
            inspect::readDmShardingMeta(*connection, setup.metaSchema, setup.taskName, setup.sourceId);
    } catch (const std::exception& e) {
        report.onlineProblem = e.what();
    }
    try {
        multisource::ShardLockTable kept(setup.downstream, setup.metaSchema, setup.taskName);
        report.shardColumns = kept.loadColumns();
        for (task::ShardLockStatus& lock : kept.loadForStatus()) {
            auto names = [&](const std::vector<task::ShardLockStatus::Shard>& shards) {
                return std::any_of(shards.begin(), shards.end(),
                                   [&](const auto& shard) { return shard.sourceId == setup.sourceId; });
            };
            if (names(lock.arrived) || names(lock.waitingFor)) {
                report.shardLocks.push_back(std::move(lock));
            }
        }
    } catch (const std::exception& e) {
        report.shardProblem = e.what();
    }
    if (report.source && report.source->global && report.inspection.upstream) {
        report.distance = distanceBetween(report.source->global->location, report.inspection.upstream->current,
                                          report.inspection.upstream->files);
    }
    return report;
}

}  // namespace syncscope::cli
