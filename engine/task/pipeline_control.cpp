#include "engine/task/pipeline_control.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include <spdlog/spdlog.h>

#include "engine/apply/downstream_connection.h"
#include "engine/checkpoint/applied_marks_store.h"
#include "engine/common/error.h"
#include "engine/schema/downstream_schema_loader.h"
#include "engine/task/merged_table_reader.h"
#include "engine/task/online_ddl_start_check.h"
#include "engine/task/replayed_ddl_judge.h"
#include "engine/task/start_point.h"

namespace syncscope::task {

namespace {

class DownstreamControl : public PipelineControl {
public:
    explicit DownstreamControl(const TaskSetup& setup)
        : setup_(setup),
          connection_(apply::connectDownstream(setup.downstream)),
          table_(*connection_, setup.metaSchema, setup.taskName),
          online_(*connection_, setup.metaSchema, setup.taskName),
          writer_(table_, setup.sourceId, &online_),
          marks_(*connection_, setup.metaSchema, setup.taskName),
          schemas_(*connection_),
          merged_(*connection_, setup.metaSchema) {}

    binlog::Location start(checkpoint::PersistedCheckpoint& persisted) override {
        table_.ensureTable();
        marks_.ensureTable();
        dropLeftProbes();
        if (!setup_.onlineDdl) {
            return chooseStartPoint(setup_, table_, persisted);
        }
        online_.ensureTable();
        onlineEntries_ = online_.load(setup_.sourceId);
        // A refused start persists nothing, not even a first start point.
        return chooseStartPoint(setup_, table_, persisted, [this](const binlog::Location& start) {
            OnlineDdlStartCheck(setup_).check(start, onlineEntries_);
        });
    }

    apply::AppliedMarks appliedMarks() override { return marks_.load(setup_.sourceId); }

    std::vector<checkpoint::OnlineDdlEntry> onlineDdlEntries() override { return onlineEntries_; }

    CheckpointWriter& checkpoints() override { return writer_; }

    DdlOutcome applyDdl(const DdlPlan& plan, const std::optional<std::string>& replayedAt) override {
        if (!replayedAt) {
            return DdlApplier(*connection_).apply(plan);
        }
        std::optional<ReplayVerdict> judged;
        try {
            judged = judge().judge(plan, *replayedAt);
        } catch (const sql::SQLException& e) {
            // Lost while judging: a retryable failure of this DDL, judged again by the next session.
            DdlOutcome lost;
            lost.errorCode = e.getErrorCode();
            lost.error =
                std::string("the downstream connection was lost while the replayed DDL was judged: ") + e.what();
            return lost;
        }
        const ReplayVerdict& verdict = *judged;
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

    std::optional<std::string> createStatement(const schema::TableName& target) override {
        try {
            std::unique_ptr<sql::Statement> statement(connection_->createStatement());
            std::unique_ptr<sql::ResultSet> result(statement->executeQuery("SHOW CREATE TABLE " + target.quoted()));
            if (result->next()) {
                return std::string(result->getString(2));
            }
        } catch (const sql::SQLException& e) {
            spdlog::warn("task {}: cannot read the definition of {} downstream: {}", setup_.taskName, target.quoted(),
                         e.what());
        }
        return std::nullopt;
    }

    void replayedTableWas(const schema::TableName& target, const std::string& createStatement) override {
        std::string error;
        if (!judge().trackFrom(target, createStatement, error)) {
            spdlog::warn(
                "task {}: the definition {} had before a replayed swap could not be made on a probe ({}); "
                "its DDLs are judged by the downstream's definition alone",
                setup_.taskName, target.quoted(), error);
        }
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

    MergedTable mergedTable(const schema::TableName& target) override {
        try {
            return merged_.read(target);
        } catch (const sql::SQLException& e) {
            throw Error(std::string(e.what()));
        }
    }

    std::optional<MergedColumn> probeColumn(const std::string& definition) override {
        try {
            return merged_.probe(definition);
        } catch (const sql::SQLException& e) {
            throw Error(std::string(e.what()));
        }
    }

    void foreignKeysChanged() override { schemas_.forgetForeignKeys(); }

    std::optional<binlog::Location> upstreamEnd() override { return upstreamEndNow(setup_); }

private:
    // A run killed inside a replay window leaves its probe databases; the next start drops them (a failure
    // to is a warning: the probes hold no data of the task's).
    void dropLeftProbes() {
        try {
            for (const std::string& left : ReplayedDdlJudge::dropLeftProbes(*connection_, probePrefix())) {
                spdlog::info("task {}: dropped the probe database `{}` that a run stopped inside a replay window left",
                             setup_.taskName, left);
            }
        } catch (const sql::SQLException& e) {
            spdlog::warn("task {}: the probe databases `{}_N` that an earlier run may have left were not dropped: {}",
                         setup_.taskName, probePrefix(), e.what());
        }
    }

    std::string probePrefix() const { return ReplayedDdlJudge::probePrefixFor(setup_.taskName, setup_.sourceId); }

    ReplayedDdlJudge& judge() {
        if (!judge_) {
            judge_ = std::make_unique<ReplayedDdlJudge>(*connection_, probePrefix());
        }
        return *judge_;
    }

    const TaskSetup& setup_;
    std::unique_ptr<sql::Connection> connection_;
    checkpoint::CheckpointTable table_;
    checkpoint::OnlineDdlStore online_;
    std::vector<checkpoint::OnlineDdlEntry> onlineEntries_;
    TableCheckpointWriter writer_;
    checkpoint::AppliedMarksStore marks_;
    schema::DownstreamSchemaLoader schemas_;
    MergedTableReader merged_;
    std::unique_ptr<ReplayedDdlJudge> judge_;  // while a replay window's DDLs are read
};

}  // namespace

std::unique_ptr<PipelineControl> openDownstreamControl(const TaskSetup& setup) {
    return std::make_unique<DownstreamControl>(setup);
}

}  // namespace syncscope::task
