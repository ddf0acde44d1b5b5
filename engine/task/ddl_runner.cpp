#include "engine/task/ddl_runner.h"

#include <spdlog/spdlog.h>

#include "engine/apply/error_class.h"
#include "engine/schema/cascade_family.h"
#include "engine/schema/schema_tracker.h"

namespace syncscope::task {

DdlRunner::DdlRunner(const std::string& taskName, PipelineControl& control, schema::SchemaTracker& schemas,
                     ReplayWindow& replay)
    : taskName_(taskName), control_(control), schemas_(schemas), replay_(replay) {}

void DdlRunner::run(const DdlPlan& plan, const binlog::Location& at, bool replayed) {
    DdlOutcome outcome = replayed ? replay_.runDdl(plan, at) : control_.applyDdl(plan, std::nullopt);
    if (outcome.appliedBefore) {
        spdlog::info("task {}: replayed DDL at {} was applied before ({}); passed over: {}", taskName_, at.toString(),
                     outcome.evidence, plan.sql);
    } else if (outcome.deferred) {
        spdlog::warn("task {}: replayed DDL at {} not run and held open until the replay window ends ({}): {}",
                     taskName_, at.toString(), outcome.evidence, plan.sql);
    } else if (!outcome.applied) {
        // A replayed DDL says why it ran: what the judge saw of the downstream's definition.
        std::string judged = replayed ? " (replayed: it ran because " + outcome.evidence + ")" : std::string();
        throw DdlFailed{plan.sql, outcome.errorCode,
                        "DDL failed downstream at " + at.toString() + judged + ": " + outcome.error + " [" +
                            std::to_string(outcome.errorCode) + "]: " + plan.sql,
                        apply::classifyDownstreamError(outcome.errorCode) == apply::ErrorClass::Retryable};
    } else if (replayed) {
        spdlog::info("task {}: applied replayed DDL at {} ({}): {}", taskName_, at.toString(), outcome.evidence,
                     plan.sql);
    } else {
        spdlog::info("task {}: applied DDL at {}: {}", taskName_, at.toString(), plan.sql);
    }
    tablesChanged(plan);
}

void DdlRunner::tablesChanged(const DdlPlan& plan) {
    for (const auto& table : plan.tables) {
        schemas_.forgetTable({table.schema, table.table});
    }
    replay_.downstreamChanged();
    if (plan.tables.empty() || schema::ddlMayChangeCascades(plan.sql)) {
        control_.foreignKeysChanged();
        schemas_.forgetAll();  // a foreign key's other table knows it by its cascade family
    }
}

}  // namespace syncscope::task
