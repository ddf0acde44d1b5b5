// Verifies every table a task replicates: the upstream's tables that its block-allow list lets
// through, each compared with the table its routes send it to. VerifySettings::parallelTables tables
// at a time, each on a connection per side of its own (one table after another on each), each chunk
// checksummed on both servers at once; another connection per side reads the next table's structure
// meanwhile (TablePlanner).
#pragma once

#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/common/server_settings.h"
#include "engine/filter/block_allow_list.h"
#include "engine/filter/table_router.h"
#include "engine/verify/repair_applier.h"
#include "engine/verify/repair_plan.h"
#include "engine/verify/table_planner.h"
#include "engine/verify/table_verifier.h"

namespace syncscope::verify {

struct VerifyTarget {
    ServerSettings upstream;
    ServerSettings downstream;
    std::shared_ptr<const filter::BlockAllowList> blockAllow;  // null: every table but the system schemas
    std::shared_ptr<const filter::TableRouter> router;         // null: same names downstream
    // Only these upstream tables (empty: all the filters allow).
    std::vector<schema::TableName> onlyTables;
};

struct RepairOptions {
    bool apply = false;         // apply the repair (keyed tables: while the rows are locked upstream)
    bool applyKeyless = false;  // tables without a key too: the DBA confirmed it explicitly
    std::vector<std::pair<std::string, std::string>> sessionVariables;  // the task's target-database session
    // Called before a repair is applied (the audit log); an exception stops that repair.
    std::function<void(const ComparedTable& table, const std::vector<RowDifference>& differences,
                       const RepairPlan& plan)>
        beforeApply;
};

struct VerifyReport {
    std::vector<TableVerifyResult> tables;
    std::string hash;          // which row hash the servers computed
    std::string taskProgress;  // how in-flight rows were told apart (TaskProgress::describe)
    double seconds = 0;
    bool cancelled = false;

    size_t differenceCount() const;
    size_t failedTables() const;
};

class TaskVerifier {
public:
    TaskVerifier(VerifyTarget target, VerifySettings settings, TaskProgress& progress)
        : target_(std::move(target)), settings_(settings), progress_(progress) {}

    void setCancelFlag(const std::atomic<bool>* cancel) { cancel_ = cancel; }
    // After every chunk: the table's place in the list, how many tables there are, its result so far.
    // With several tables compared at once it is called from their threads, one call at a time.
    void setProgressHandler(std::function<void(size_t index, size_t count, const TableVerifyResult&)> handler) {
        onProgress_ = std::move(handler);
    }
    // Plans a repair for every table that differs, and applies it when options.apply says so.
    void setRepair(RepairOptions options) { repair_ = std::move(options); }

    // Throws VerifyError when a server cannot be reached at the start; a failure within one table
    // (a missing table, different columns, a connection lost mid-table) is that table's result.
    VerifyReport run();

    // The upstream tables the filters let through, with their routed names. Throws VerifyError.
    static std::vector<std::pair<schema::TableName, schema::TableName>> replicatedTables(ServerSession& upstream,
                                                                                         const VerifyTarget& target);
    // Both sides' structure, compared; throws VerifyError saying what differs or is missing.
    static ComparedTable planTable(ServerSession& upstream, ServerSession& downstream,
                                   const schema::TableName& upstreamName, const schema::TableName& downstreamName);

    // The sessions of the last run() (for a repair that follows it), null before: those of the first of the
    // tables compared at the same time.
    ServerSession* upstreamSession() { return upstream_.get(); }
    ServerSession* downstreamSession() { return downstream_.get(); }
    const VerifySettings& settings() const { return settings_; }
    TaskProgress& progress() { return progress_; }

private:
    // Tables compared at the same time: parallelTables, 1 when a repair is applied (one applier, one audit
    // log, in table order), never more than there are tables.
    size_t laneCount(size_t tables) const;
    // Compares the tables `planner` hands out, one after another, on one pair of sessions, into `results`
    // (by the tables' places); stops taking tables once cancelled or `stop` is set.
    void runLane(ServerSession& upstream, ServerSession& downstream, TablePlanner& planner, TaskProgress& progress,
                 std::vector<std::optional<TableVerifyResult>>& results, std::atomic<bool>& stop);
    void reportProgress(size_t index, size_t count, const TableVerifyResult& result);
    TableVerifyResult verifyTable(TableVerifier& verifier, const ComparedTable& table);
    void applyRepair(const ComparedTable& table, const std::vector<RowDifference>& differences, RepairOutcome& outcome);

    VerifyTarget target_;
    VerifySettings settings_;
    TaskProgress& progress_;
    const std::atomic<bool>* cancel_ = nullptr;
    std::function<void(size_t, size_t, const TableVerifyResult&)> onProgress_;
    std::optional<RepairOptions> repair_;
    std::mutex progressMutex_;  // onProgress_ is called one table at a time

    std::unique_ptr<ServerSession> upstream_;
    std::unique_ptr<ServerSession> downstream_;
    std::unique_ptr<RepairApplier> applier_;
};

}  // namespace syncscope::verify
