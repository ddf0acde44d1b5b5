// The pipeline's control port for the seam tests: an in-memory checkpoint store (what a flush persisted,
// every plan it was asked to write, failures on request), DDL outcomes as scripted, and the downstream
// schema of `seam`.`t`. With the synthetic binlog and scripted worker sessions the pipeline runs without
// a server.
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/apply/downstream_connection.h"
#include "engine/schema/table_schema.h"
#include "engine/task/pipeline_control.h"

namespace syncscope::test {

struct ControlScript {
    std::mutex mutex;
    checkpoint::PersistedCheckpoint persisted;       // what the store holds now
    std::vector<checkpoint::FlushPlan> plans;        // every plan written, in order
    int failWritesWithCode = 0;                      // a write throws this server error (0: never)...
    size_t writesBeforeFailure = 0;                  // ...after this many writes succeeded
    size_t writes = 0;                               // writes done (flushes and exit-safe marks)
    int ddlErrorCode = 0;                            // a DDL fails downstream with this code (0: it runs)
    std::vector<std::string> ddlsRun;                // every DDL the pipeline ran (also the failed ones)
    std::function<void()> whenDdlRuns;               // called (without the lock) as a DDL runs downstream
    apply::AppliedMarks appliedMarks;                // what the marks table holds (applied_marks.h)
    std::vector<checkpoint::OnlineDdlEntry> online;  // the online schema changes' rows (online_ddl_store.h)

    // Every persisted position: the global point's and each table point's, in the synthetic file.
    std::vector<uint64_t> persistedPositions() {
        std::lock_guard lock(mutex);
        std::vector<uint64_t> positions;
        if (persisted.hasGlobalRow) {
            positions.push_back(persisted.globalPoint.position().offset());
        }
        for (const auto& table : persisted.tablePoints) {
            positions.push_back(table.location.position().offset());
        }
        return positions;
    }
    uint64_t persistedGlobal() {
        std::lock_guard lock(mutex);
        return persisted.hasGlobalRow ? persisted.globalPoint.position().offset() : 0;
    }
    uint64_t persistedExitSafe() {
        std::lock_guard lock(mutex);
        return persisted.exitSafePoint.isEmpty() ? 0 : persisted.exitSafePoint.position().offset();
    }
    // Starts the task at `offset` of the synthetic file, as a persisted global point (a resume-from).
    void persistGlobalAt(const std::string& file, uint64_t offset) {
        std::lock_guard lock(mutex);
        persisted.hasGlobalRow = true;
        persisted.globalPoint = binlog::Location(binlog::BinlogPosition(file, offset));
        persisted.exitSafePoint = persisted.globalPoint;
    }
};

class ScriptedControl : public task::PipelineControl {
public:
    ScriptedControl(std::shared_ptr<ControlScript> script, const task::TaskSetup& setup)
        : script_(std::move(script)), setup_(setup), writer_(*script_) {}

    binlog::Location start(checkpoint::PersistedCheckpoint& persisted) override {
        std::lock_guard lock(script_->mutex);
        if (!script_->persisted.hasGlobalRow) {
            script_->persisted.hasGlobalRow = true;
            script_->persisted.globalPoint =
                binlog::Location(binlog::BinlogPosition(setup_.metaBinlogName, setup_.metaBinlogPos));
            script_->persisted.exitSafePoint = script_->persisted.globalPoint;
        }
        persisted = script_->persisted;
        return persisted.globalPoint;
    }

    apply::AppliedMarks appliedMarks() override {
        std::lock_guard lock(script_->mutex);
        return script_->appliedMarks;
    }

    std::vector<checkpoint::OnlineDdlEntry> onlineDdlEntries() override {
        std::lock_guard lock(script_->mutex);
        return script_->online;
    }

    task::CheckpointWriter& checkpoints() override { return writer_; }

    task::DdlOutcome applyDdl(const task::DdlPlan& plan, const std::optional<std::string>&) override {
        if (script_->whenDdlRuns) {
            script_->whenDdlRuns();
        }
        std::lock_guard lock(script_->mutex);
        script_->ddlsRun.push_back(plan.sql);
        task::DdlOutcome outcome;
        outcome.applied = script_->ddlErrorCode == 0;
        outcome.errorCode = script_->ddlErrorCode;
        outcome.error = outcome.applied ? "" : "scripted DDL failure";
        return outcome;
    }

    std::optional<schema::TableSchema> loadSchema(const schema::TableName& target) override {
        if (target.schema != "seam" || target.table != "t") {
            return std::nullopt;
        }
        std::vector<schema::SchemaColumn> columns{{"id", binlog::ColumnType::Long, "int", false, false},
                                                  {"v", binlog::ColumnType::Long, "int", false, true}};
        schema::TableSchema table(target, columns, {0}, {}, schema::SchemaOrigin::Downstream);
        table.setDownstreamUniqueIndexes({{"id"}});
        return table;
    }

    void foreignKeysChanged() override {}
    std::optional<binlog::Location> upstreamEnd() override { return std::nullopt; }

private:
    class Writer : public task::CheckpointWriter {
    public:
        explicit Writer(ControlScript& script) : script_(script) {}
        void write(const checkpoint::FlushPlan& plan) override {
            std::lock_guard lock(script_.mutex);
            failIfScripted("checkpoint flush");
            script_.plans.push_back(plan);
            script_.persisted.hasGlobalRow = true;
            script_.persisted.globalPoint = plan.globalPoint;
            script_.persisted.exitSafePoint = plan.exitSafePoint;
            for (const auto& write : plan.onlineDdl) {
                auto& online = script_.online;
                auto same = [&](const checkpoint::OnlineDdlEntry& e) {
                    return e.shadowSchema == write.shadowSchema && e.shadowTable == write.shadowTable;
                };
                online.erase(std::remove_if(online.begin(), online.end(), same), online.end());
                if (write.entry) {
                    online.push_back(*write.entry);
                }
            }
            for (const auto& point : plan.tablePoints) {
                auto& tables = script_.persisted.tablePoints;
                auto same = [&](const checkpoint::TablePoint& p) { return p.table == point.table; };
                tables.erase(std::remove_if(tables.begin(), tables.end(), same), tables.end());
                tables.push_back(point);
            }
        }
        void writeExitSafePoint(const binlog::Location&, const binlog::Location& mark) override {
            std::lock_guard lock(script_.mutex);
            failIfScripted("exit-safe mark");
            script_.persisted.exitSafePoint = mark;
        }

    private:
        void failIfScripted(const std::string& what) {
            if (script_.failWritesWithCode != 0 && script_.writes >= script_.writesBeforeFailure) {
                throw apply::DownstreamError("scripted failure writing the " + what, script_.failWritesWithCode,
                                             "scripted failure", what);
            }
            ++script_.writes;
        }
        ControlScript& script_;
    };

    std::shared_ptr<ControlScript> script_;
    const task::TaskSetup& setup_;
    Writer writer_;
};

}  // namespace syncscope::test
