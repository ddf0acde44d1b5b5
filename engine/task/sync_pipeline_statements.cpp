// The pipeline's statements: transaction control, XA branches (held until their outcome is read) and DDL
// (run after a barrier flush, with its possibly-applied window) (sync_pipeline.h).
#include "engine/task/sync_pipeline.h"

#include <spdlog/spdlog.h>

#include "engine/apply/worker_pool.h"
#include "engine/task/ddl_statement.h"
#include "engine/task/failed_event_view.h"

namespace syncscope::task {

using binlog::Location;

void SyncPipeline::onQuery(const binlog::Event& event, const binlog::QueryEvent& query) {
    using Kind = binlog::QueryEvent::Kind;
    switch (query.kind) {
        case Kind::Begin:
            if (!transactionTracker_.inGroup()) {
                transactionTracker_.onBegin(startOf(event), timestampOf(event));
                onGroupOpened();
            }
            return;
        case Kind::Commit:
        case Kind::Rollback:
            endTransaction(event);
            return;
        case Kind::Xa:
            onXaStatement(event, query);
            return;
        case Kind::Savepoint:
            return;
        case Kind::Ddl:
        case Kind::Other:
            onDdl(event, query);
            return;
    }
}

void SyncPipeline::onXaStatement(const binlog::Event& event, const binlog::QueryEvent& query) {
    if (std::string branch = xaStartBranch(query.query); !branch.empty()) {
        // MySQL logs XA START as a statement inside the branch's group.
        if (!transactionTracker_.inGroup()) {
            transactionTracker_.onBegin(startOf(event), timestampOf(event));
            onGroupOpened();
        }
        transactionTracker_.markXaBranch(std::move(branch));
        return;
    }
    std::optional<XaOutcome> outcome = xaOutcomeOf(query.query);
    if (!outcome) {
        return;  // XA END: the branch goes on to its XA PREPARE
    }
    if (!transactionTracker_.inGroup()) {
        transactionTracker_.openForDdl(startOf(event), timestampOf(event));
        onGroupOpened();
    }
    HeldPointsRelease release;
    std::optional<PreparedBranch> branch = preparedXa_.resolve(outcome->branch, release);
    takePoints(release);
    if (!branch) {
        // Prepared before this session's start point (or all its rows were filtered out): nothing of it
        // waits here. Our own checkpoints never start between a PREPARE and its outcome (they are held).
        spdlog::warn(
            "task {}: XA {} of branch {} at {}: its XA PREPARE was not read in this session (it lies "
            "before the start point, or none of its rows passed the filters)",
            setup_.taskName, outcome->commit ? "COMMIT" : "ROLLBACK", outcome->branch, startOf(event).toString());
    } else if (outcome->commit && !skippingTransaction_) {
        Location at = locationAt(event);
        size_t rows = branch->changes.size();
        dispatchBranch(branch->changes, branch->tables, at);
        spdlog::info("task {}: XA COMMIT of branch {} at {}: {} rows applied", setup_.taskName, outcome->branch,
                     at.toString(), rows);
    } else if (outcome->commit) {
        spdlog::warn("task {}: XA COMMIT of branch {} at {} skipped as the DBA asked: its {} rows are not applied",
                     setup_.taskName, outcome->branch, startOf(event).toString(), branch->changes.size());
    } else {
        spdlog::info("task {}: XA ROLLBACK of branch {} at {}: its {} rows are dropped", setup_.taskName,
                     outcome->branch, startOf(event).toString(), branch->changes.size());
    }
    endTransaction(event);
}

// An XA branch's rows go to the workers when its commit is read, as the changes of the group at `at`.
void SyncPipeline::dispatchBranch(std::vector<apply::RowChange>& changes,
                                  const std::vector<checkpoint::TableName>& tables, const Location& at) {
    DispatchAdmission admission = admit(at);
    uint64_t groupSeq =
        transactionTracker_.group() != nullptr ? transactionTracker_.group()->seq : transactionTracker_.lastSeq();
    appliedMarks_.filterBranch(changes, {at.position().file(), at.position().offset(), ""}, admission.inSafeModeWindow);
    for (apply::RowChange& change : changes) {
        change.transactionSeq = groupSeq;
        change.safeMode = setup_.syncer.safeMode || admission.inSafeModeWindow;
    }
    sendToWorkers(changes);
    for (const auto& table : tables) {
        transactionTablePoints_[table] = at;
    }
}

void SyncPipeline::failOnDdl(const binlog::Event& event, const binlog::QueryEvent& query, const Location& at,
                             const std::string& sql, int code, const std::string& message, bool retryable) {
    SessionFailure failure{failureOutcome(message, retryable)};
    failure.outcome.failedTransactionStart = transactionTracker_.inGroup() ? transactionStart_ : startOf(event);
    failure.outcome.failedEvent = ddlFailedEvent(at, query, sql, code, message);
    throw failure;
}

void SyncPipeline::onDdl(const binlog::Event& event, const binlog::QueryEvent& query) {
    bool ownGroup = transactionTracker_.ddlIsOwnGroup();
    if (skippingTransaction_) {
        if (ownGroup) {
            endTransaction(event);
        }
        return;
    }
    DdlPlan plan = planDdl(setup_, query.schema, query.query);
    Location at = locationAt(event);
    if (plan.action == DdlPlan::Action::Error) {
        failOnDdl(event, query, at, query.query, 0, plan.reason + " at " + at.toString() + ": " + query.query, false);
    }
    if (plan.action == DdlPlan::Action::Apply) {
        // Every row before the DDL must be downstream before the table changes shape, and the points
        // before it persisted, with the exit-safe point at this DDL: after a kill during it, this DDL lies
        // in the next session's replay window (ddl_applier.h).
        flush(FlushReason::BeforeDdl, at);
        try {
            ddl_->run(plan, at, admit(at).inReplayWindow);
        } catch (const DdlFailed& failed) {
            failOnDdl(event, query, at, failed.sql, failed.code, failed.message, failed.retryable);
        }
    } else {
        spdlog::info("task {}: ignored DDL at {} ({}): {}", setup_.taskName, at.toString(), plan.reason, query.query);
    }
    if (!ownGroup) {
        // CREATE TABLE ... SELECT: the group's rows follow; the group ends at its terminator.
        transactionTracker_.markDdlInGroup();
        return;
    }
    if (!transactionTracker_.inGroup()) {
        transactionTracker_.openForDdl(startOf(event), timestampOf(event));
        onGroupOpened();
    }
    endTransaction(event);
    flush(FlushReason::AfterDdl);
}

}  // namespace syncscope::task
