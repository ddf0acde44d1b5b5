#include "engine/task/ddl_statement.h"

#include "engine/filter/block_allow_list.h"
#include "engine/filter/ddl_classifier.h"
#include "engine/filter/event_filter.h"
#include "engine/filter/table_router.h"

namespace syncscope::task {

DdlPlan planDdl(const TaskSetup& setup, const std::string& defaultSchema, const std::string& sql) {
    using filter::StatementKind;
    DdlPlan plan;
    plan.sql = sql;
    plan.defaultSchema = defaultSchema;
    filter::ClassifiedStatement statement = filter::DdlClassifier::classify(sql, defaultSchema);
    switch (statement.kind) {
        case StatementKind::TransactionControl:
        case StatementKind::NotReplicated:
            plan.action = DdlPlan::Action::Ignore;
            plan.reason = statement.note.empty() ? "not a statement the sync unit replicates" : statement.note;
            return plan;
        case StatementKind::StatementDml:
            plan.action = DdlPlan::Action::Error;
            plan.reason = "a DML statement in a QUERY event: the upstream does not log ROW format (" + statement.note +
                          "); fix with SET GLOBAL binlog_format = 'ROW'";
            return plan;
        case StatementKind::Unsupported:
        case StatementKind::Unclassified:
            plan.action = DdlPlan::Action::Error;
            plan.reason =
                "cannot replicate this statement (" + statement.note + "); apply it downstream by hand, then skip it";
            return plan;
        default:
            break;
    }
    plan.tables = statement.tablesIn(filter::TableRole::Changed);
    bool anyAllowed = false;
    for (const filter::TableName& table : plan.tables) {
        if (setup.blockAllow && !setup.blockAllow->allows(table)) {
            continue;
        }
        anyAllowed = true;
        if (setup.eventFilter && !setup.eventFilter->empty()) {
            auto decision = setup.eventFilter->decide(table, statement.filterEvent, sql);
            if (decision.action == filter::FilterAction::Ignore) {
                plan.action = DdlPlan::Action::Ignore;
                plan.reason = "filter rule " + decision.ruleName;
                return plan;
            }
            if (decision.action == filter::FilterAction::Error) {
                plan.action = DdlPlan::Action::Error;
                plan.reason = "filter rule " + decision.ruleName + " says Error for " + statement.filterEvent + " on " +
                              table.quoted();
                return plan;
            }
        }
    }
    if (!anyAllowed) {
        plan.action = DdlPlan::Action::Ignore;
        plan.reason = "block-allow list";
        return plan;
    }
    // Every table name written out in full (and routed), so the statement needs no default database
    // downstream, where the upstream's default database may not exist.
    plan.sql = filter::DdlClassifier::rewriteTables(sql, statement, [&](const filter::TableName& table) {
        return setup.router && !setup.router->empty() ? setup.router->route(table) : table;
    });
    plan.defaultSchema.clear();
    return plan;
}

}  // namespace syncscope::task
