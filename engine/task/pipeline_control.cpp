#include "engine/task/pipeline_control.h"

#include <cppconn/connection.h>

#include "engine/apply/downstream_connection.h"
#include "engine/checkpoint/applied_marks_store.h"
#include "engine/schema/downstream_schema_loader.h"
#include "engine/task/start_point.h"

namespace syncscope::task {

namespace {

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

    DdlOutcome applyDdl(const DdlPlan& plan, bool possiblyApplied) override {
        return DdlApplier(*connection_).apply(plan, possiblyApplied);
    }

    std::optional<schema::TableSchema> loadSchema(const schema::TableName& target) override {
        return schemas_.load(target);
    }

    void foreignKeysChanged() override { schemas_.forgetForeignKeys(); }

    std::optional<binlog::Location> upstreamEnd() override { return upstreamEndNow(setup_); }

private:
    const TaskSetup& setup_;
    std::unique_ptr<sql::Connection> connection_;
    checkpoint::CheckpointTable table_;
    TableCheckpointWriter writer_;
    checkpoint::AppliedMarksStore marks_;
    schema::DownstreamSchemaLoader schemas_;
};

}  // namespace

std::unique_ptr<PipelineControl> openDownstreamControl(const TaskSetup& setup) {
    return std::make_unique<DownstreamControl>(setup);
}

}  // namespace syncscope::task
