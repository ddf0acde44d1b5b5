#include "engine/task/pipeline_control.h"

#include <cppconn/connection.h>

#include <cstdint>
#include <cstdio>

#include "engine/apply/downstream_connection.h"
#include "engine/checkpoint/applied_marks_store.h"
#include "engine/schema/downstream_schema_loader.h"
#include "engine/task/replayed_ddl_judge.h"
#include "engine/task/start_point.h"

namespace syncscope::task {

namespace {

// The replayed DDL judge's probe databases: one name per task and source, so that tasks sharing a
// downstream never touch each other's.
std::string probePrefix(const TaskSetup& setup) {
    constexpr uint32_t kFnvOffset = 2166136261U;
    constexpr uint32_t kFnvPrime = 16777619U;
    uint32_t hash = kFnvOffset;
    for (char c : setup.taskName + "/" + setup.sourceId) {
        hash = (hash ^ static_cast<uint8_t>(c)) * kFnvPrime;
    }
    char hex[9];
    std::snprintf(hex, sizeof hex, "%08x", hash);
    return std::string("_syncscope_replay_") + hex;
}

class DownstreamControl : public PipelineControl {
public:
    explicit DownstreamControl(const TaskSetup& setup)
        : setup_(setup),
          connection_(apply::connectDownstream(setup.downstream)),
          table_(*connection_, setup.metaSchema, setup.taskName),
          writer_(table_, setup.sourceId),
          marks_(*connection_, setup.metaSchema, setup.taskName),
          schemas_(*connection_) {}

    binlog::Location start(checkpoint::PersistedCheckpoint& persisted) override {
        table_.ensureTable();
        marks_.ensureTable();
        return chooseStartPoint(setup_, table_, persisted);
    }

    apply::AppliedMarks appliedMarks() override { return marks_.load(setup_.sourceId); }

    CheckpointWriter& checkpoints() override { return writer_; }

    DdlOutcome applyDdl(const DdlPlan& plan, const std::optional<std::string>& replayedAt) override {
        if (!replayedAt) {
            return DdlApplier(*connection_).apply(plan);
        }
        ReplayVerdict verdict = judge().judge(plan, *replayedAt);
        DdlOutcome outcome;
        outcome.evidence = verdict.evidence;
        if (verdict.kind == ReplayVerdict::Kind::AlreadyApplied) {
            outcome.appliedBefore = true;
        } else if (verdict.kind == ReplayVerdict::Kind::Deferred) {
            outcome.deferred = true;
        } else {
            DdlPlan run = plan;
            if (!verdict.sqlToRun.empty()) {
                run.sql = verdict.sqlToRun;
            }
            DdlOutcome ran = DdlApplier(*connection_).apply(run);
            ran.evidence = verdict.evidence;
            return ran;
        }
        return outcome;
    }

    void replayedRowsUnfit(const schema::TableName& table, const std::vector<std::string>& absentColumns,
                           const std::string& where) override {
        judge().rowsUnfit(table, absentColumns, where);
    }

    std::vector<std::string> endReplayWindow() override {
        if (!judge_) {
            return {};
        }
        std::vector<std::string> conflicts = judge_->conflicts();
        judge_.reset();  // drops its probe databases
        return conflicts;
    }

    std::optional<schema::TableSchema> loadSchema(const schema::TableName& target) override {
        return schemas_.load(target);
    }

    void foreignKeysChanged() override { schemas_.forgetForeignKeys(); }

    std::optional<binlog::Location> upstreamEnd() override { return upstreamEndNow(setup_); }

private:
    ReplayedDdlJudge& judge() {
        if (!judge_) {
            judge_ = std::make_unique<ReplayedDdlJudge>(*connection_, probePrefix(setup_));
        }
        return *judge_;
    }

    const TaskSetup& setup_;
    std::unique_ptr<sql::Connection> connection_;
    checkpoint::CheckpointTable table_;
    TableCheckpointWriter writer_;
    checkpoint::AppliedMarksStore marks_;
    schema::DownstreamSchemaLoader schemas_;
    std::unique_ptr<ReplayedDdlJudge> judge_;  // while a replay window's DDLs are read
};

}  // namespace

std::unique_ptr<PipelineControl> openDownstreamControl(const TaskSetup& setup) {
    return std::make_unique<DownstreamControl>(setup);
}

}  // namespace syncscope::task
