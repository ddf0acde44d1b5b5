// What the pipeline's reader thread asks of the servers besides its workers' writes: the task's persisted
// checkpoint (where to start, and the writer of every flush), the downstream's DDL and table schemas, and
// the upstream's end of binlog once at start (safe mode's window). A port: the task's own runs over one
// downstream connection (and a short upstream one); the seam tests pass an in-memory store and scripted
// DDL outcomes, and drive the whole pipeline without a server.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/apply/applied_marks.h"
#include "engine/binlog/location.h"
#include "engine/checkpoint/checkpoint_table.h"
#include "engine/schema/table_schema.h"
#include "engine/task/ddl_applier.h"
#include "engine/task/ddl_statement.h"
#include "engine/task/flush_coordinator.h"
#include "engine/task/optimistic_shard_ddl.h"
#include "engine/task/task_setup.h"

namespace syncscope::task {

class PipelineControl {
public:
    virtual ~PipelineControl() = default;

    // Reads the persisted checkpoint of the task's source into `persisted` (creating the table the first
    // time) and returns where the session starts (start_point.h).
    virtual binlog::Location start(checkpoint::PersistedCheckpoint& persisted) = 0;
    // The applied marks of the task's source (engine/apply/applied_marks.h), read after start().
    virtual apply::AppliedMarks appliedMarks() = 0;
    // The online schema changes followed (online-ddl), as persisted with the checkpoint; read after start().
    virtual std::vector<checkpoint::OnlineDdlEntry> onlineDdlEntries() { return {}; }
    // Writes every flush and exit-safe mark of the session.
    virtual CheckpointWriter& checkpoints() = 0;
    // Runs a DDL downstream (ddl_applier.h). Inside a replay window (`replayedAt` names where it was read)
    // it is judged by the downstream's definitions first (replayed_ddl_judge.h).
    virtual DdlOutcome applyDdl(const DdlPlan& plan, const std::optional<std::string>& replayedAt) = 0;
    // SHOW CREATE TABLE of a downstream table; nullopt when it has none (or it cannot be read).
    virtual std::optional<std::string> createStatement(const schema::TableName& /*target*/) { return std::nullopt; }
    // Inside a replay window: `target` had this definition before the DDLs about to be replayed on it
    // (replayed_ddl_judge.h trackFrom), kept with the checkpoint when they first ran.
    virtual void replayedTableWas(const schema::TableName& /*target*/, const std::string& /*createStatement*/) {}
    // When the replay window has been read to its end: the replayed DDLs still not placed by the
    // downstream's definitions (each naming both definitions and the DDL); the judge's probes go.
    virtual std::vector<std::string> endReplayWindow() { return {}; }
    // Replayed rows fitted to the downstream (replayed_rows.h): a DDL of the window must explain it.
    virtual void replayedRowsUnfit(const schema::TableName& /*table*/,
                                   const std::vector<std::string>& /*absentColumns*/, const std::string& /*where*/) {}
    // The downstream's structure of a target table; nullopt when it has no such table.
    virtual std::optional<schema::TableSchema> loadSchema(const schema::TableName& target) = 0;
    // A DDL may have added, dropped or moved a foreign key: the next loads read them again.
    virtual void foreignKeysChanged() = 0;
    // Shard merge's optimistic mode (merged_table_reader.h): the merged table as it is downstream, and the
    // column a DDL's definition makes. Throw syncscope::Error when the server cannot be read.
    virtual MergedTable mergedTable(const schema::TableName& /*target*/) { return {}; }
    virtual std::optional<MergedColumn> probeColumn(const std::string& /*definition*/) { return std::nullopt; }
    // The upstream's end of binlog now, without GTIDs; nullopt when it cannot be read.
    virtual std::optional<binlog::Location> upstreamEnd() = 0;
};

// The task's own control: the checkpoint table, DDL and schemas on one connection to the downstream.
std::unique_ptr<PipelineControl> openDownstreamControl(const TaskSetup& setup);

}  // namespace syncscope::task
