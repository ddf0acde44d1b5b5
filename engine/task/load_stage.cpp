#include "engine/task/load_stage.h"

#include <cppconn/connection.h>
#include <spdlog/spdlog.h>

#include <cstdio>

#include "engine/apply/downstream_connection.h"
#include "engine/apply/error_class.h"
#include "engine/checkpoint/checkpoint_table.h"
#include "engine/load/load_error.h"
#include "engine/load/snapshot_loader.h"

namespace syncscope::task {

namespace {

constexpr const char* kModeAll = "all";
constexpr const char* kModeFull = "full";
constexpr double kBytesPerMegabyte = 1024.0 * 1024.0;

load::LoadSettings loadSettings(const TaskSetup& setup) {
    load::LoadSettings settings;
    settings.upstream = setup.upstream;
    settings.downstream = setup.downstream;
    settings.taskName = setup.taskName;
    settings.metaSchema = setup.metaSchema;
    settings.sourceId = setup.sourceId;
    settings.enableGtid = setup.enableGtid;
    settings.threads = setup.loadThreads;
    settings.chunkRows = setup.loadChunkRows;
    settings.chunkBytes = setup.loadChunkBytes;
    if (auto method = load::loadMethodNamed(setup.loadMethod)) {
        settings.copy.method = *method;
    }
    if (auto rule = load::duplicateRuleNamed(setup.loadOnDuplicate)) {
        settings.copy.onDuplicate = *rule;
    }
    if (setup.loadStatementBytes > 0) {
        settings.copy.statementBytes = setup.loadStatementBytes;
    }
    settings.blockAllow = setup.blockAllow ? setup.blockAllow : std::make_shared<const filter::BlockAllowList>();
    settings.router = setup.router ? setup.router : std::make_shared<const filter::TableRouter>();
    return settings;
}

SessionOutcome failed(const std::string& message, bool retryable) {
    SessionOutcome outcome;
    outcome.kind = SessionOutcome::Kind::Failed;
    outcome.retryable = retryable;
    outcome.message = message;
    return outcome;
}

}  // namespace

LoadStage::LoadStage(const TaskSetup& setup)
    : setup_(setup),
      enabled_(setup.taskMode == kModeAll || setup.taskMode == kModeFull),
      stopsAfterLoad_(setup.taskMode == kModeFull),
      removePlanFirst_(setup.removeMeta),
      progress_(setup.taskMode) {}

std::optional<load::LoadProgressView> LoadStage::progress() const {
    if (!enabled_) {
        return std::nullopt;
    }
    return progress_.view();
}

std::optional<SessionOutcome> LoadStage::run(const std::atomic<bool>& interrupt, const std::function<void()>& copying) {
    if (!enabled_ || finished_) {
        return std::nullopt;
    }
    try {
        load::SnapshotLoader loader(loadSettings(setup_), progress_);
        if (removePlanFirst_) {
            loader.removePlan();
            spdlog::warn("task {}: removed the load plan of source {} (--remove-meta)", setup_.taskName,
                         setup_.sourceId);
            removePlanFirst_ = false;
        }
        auto control = apply::connectDownstream(setup_.downstream);
        checkpoint::CheckpointTable syncerCheckpoint(*control, setup_.metaSchema, setup_.taskName);
        if (!stopsAfterLoad_) {
            syncerCheckpoint.ensureTable();
            if (syncerCheckpoint.load(setup_.sourceId).hasGlobalRow) {
                // The load finished before (its last act wrote this row): continue incrementally.
                progress_.setFinished();
                progress_.setUnit(load::kUnitSync);
                finished_ = true;
                return std::nullopt;
            }
        }
        if (copying) {
            copying();
        }
        load::LoadResult result = loader.run(interrupt);
        if (!result.finished) {
            return SessionOutcome{};  // Interrupted: what committed stays done in the plan
        }
        char size[32];
        std::snprintf(size, sizeof size, "%.1f MB", static_cast<double>(result.bytes) / kBytesPerMegabyte);
        summary_ = std::string(stopsAfterLoad_ ? "full" : "snapshot") +
                   " load finished: " + std::to_string(result.tables) + " tables, " + std::to_string(result.rows) +
                   " rows, " + size;
        if (!stopsAfterLoad_ && result.tables > 0) {
            load::SnapshotLoader::requirePointKept(setup_.upstream, result.earliestPoint);
            if (setup_.syncer.safeModeDuration.count() == 0 &&
                result.latestPoint.compare(result.earliestPoint) == binlog::PositionOrder::After) {
                // The plan stays done: once the setting is removed, the next start writes the point and goes on.
                return failed("load: the chunks were read at several snapshots, from " +
                                  result.earliestPoint.toString() + " to " + result.latestPoint.toString() +
                                  " (the load was interrupted and went on under a new snapshot): replication from " +
                                  result.earliestPoint.toString() +
                                  " re-applies events that the later chunks already hold, which needs safe mode "
                                  "until " +
                                  result.latestPoint.toString() +
                                  ", but `safe-mode-duration` in task.yaml is 0s; remove the setting for this start",
                              false);
            }
            std::vector<checkpoint::TablePoint> tablePoints;
            for (const auto& [table, point] : result.keylessTablePoints) {
                tablePoints.push_back({{table.schema, table.table}, point});
            }
            // Global at the earliest snapshot, exit-safe at the latest: every event a chunk may already
            // hold is re-applied in safe mode, and nothing after the earliest snapshot is missed.
            syncerCheckpoint.flush(setup_.sourceId, tablePoints, result.earliestPoint, result.latestPoint);
            summary_ += "; incremental from " + result.earliestPoint.toString() + ", safe mode until " +
                        result.latestPoint.toString();
        }
        spdlog::info("task {}: {}", setup_.taskName, summary_);
        progress_.setUnit(stopsAfterLoad_ ? load::kUnitLoad : load::kUnitSync);
        finished_ = true;
        return std::nullopt;
    } catch (const load::LoadError& e) {
        return failed(e.what(), e.retryable());
    } catch (const apply::DownstreamError& e) {
        return failed(std::string("load: ") + e.what(),
                      apply::classifyDownstreamError(e.code()) == apply::ErrorClass::Retryable);
    } catch (const std::exception& e) {
        return failed(std::string("load: ") + e.what(), false);
    }
}

}  // namespace syncscope::task
