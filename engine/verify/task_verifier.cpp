#include "engine/verify/task_verifier.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <thread>

#include "engine/schema/downstream_schema_loader.h"

namespace syncscope::verify {

namespace {

const char* const kTablesQuery =
    "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES WHERE TABLE_TYPE = 'BASE TABLE' "
    "ORDER BY TABLE_SCHEMA, TABLE_NAME";

std::optional<schema::TableSchema> loadStructure(ServerSession& session, const schema::TableName& name) {
    try {
        return schema::DownstreamSchemaLoader(session.connection()).load(name);
    } catch (const schema::SchemaError& e) {
        throw VerifyError(session.side() + ": " + e.what());
    }
}

std::map<std::string, std::string> characterSets(ServerSession& session, const schema::TableName& table) {
    BoundQuery query{
        "SELECT COLUMN_NAME, CHARACTER_SET_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? "
        "AND TABLE_NAME = ? AND CHARACTER_SET_NAME IS NOT NULL",
        {apply::SqlValue::text(table.schema), apply::SqlValue::text(table.table)}};
    std::map<std::string, std::string> sets;
    for (const auto& row : session.query(query)) {
        sets[row.at(0).value_or("")] = row.at(1).value_or("");
    }
    return sets;
}

std::string columnNames(const schema::TableSchema& table, const std::vector<size_t>& positions) {
    std::string names;
    for (size_t position : positions) {
        names += (names.empty() ? "" : ", ") + table.columns()[position].name;
    }
    return names;
}

}  // namespace

size_t VerifyReport::differenceCount() const {
    size_t count = 0;
    for (const auto& table : tables) {
        count += table.differences.size();
    }
    return count;
}

size_t VerifyReport::failedTables() const {
    return static_cast<size_t>(std::count_if(tables.begin(), tables.end(), [](const TableVerifyResult& table) {
        return table.outcome == TableOutcome::Failed;
    }));
}

std::vector<std::pair<schema::TableName, schema::TableName>> TaskVerifier::replicatedTables(
    ServerSession& upstream, const VerifyTarget& target) {
    std::vector<std::pair<schema::TableName, schema::TableName>> tables;
    for (const auto& row : upstream.query(std::string(kTablesQuery))) {
        filter::TableName name{row.at(0).value_or(""), row.at(1).value_or("")};
        if (filter::BlockAllowList::isSystemSchema(name.schema)) {
            continue;
        }
        if (target.blockAllow && !target.blockAllow->allows(name)) {
            continue;
        }
        schema::TableName upstreamName{name.schema, name.table};
        if (!target.onlyTables.empty() &&
            std::find(target.onlyTables.begin(), target.onlyTables.end(), upstreamName) == target.onlyTables.end()) {
            continue;
        }
        filter::TableName routed = target.router ? target.router->route(name) : name;
        tables.emplace_back(upstreamName, schema::TableName{routed.schema, routed.table});
    }
    return tables;
}

ComparedTable TaskVerifier::planTable(ServerSession& upstream, ServerSession& downstream,
                                      const schema::TableName& upstreamName, const schema::TableName& downstreamName) {
    auto upstreamTable = loadStructure(upstream, upstreamName);
    if (!upstreamTable) {
        throw VerifyError("upstream table " + upstreamName.text() + " does not exist on " + upstream.describe());
    }
    auto downstreamTable = loadStructure(downstream, downstreamName);
    if (!downstreamTable) {
        throw VerifyError("downstream table " + downstreamName.text() + " (replicated from " + upstreamName.text() +
                          ") does not exist on " + downstream.describe());
    }
    ComparedTable table = ComparedTable::plan(*upstreamTable, *downstreamTable);
    table.setCharacterSets(characterSets(upstream, upstreamName), characterSets(downstream, downstreamName));
    const auto& upKey = upstreamTable->rowKey();
    const auto& downKey = downstreamTable->rowKey();
    std::string upKeyColumns = columnNames(*upstreamTable, upKey.columns);
    std::string downKeyColumns = columnNames(*downstreamTable, downKey.columns);
    if (upKey.kind != schema::RowKeyKind::AllColumns && upKeyColumns != downKeyColumns) {
        throw VerifyError(table.describe() + ": the upstream's key " + upKey.indexName + " (" + upKeyColumns +
                          ") is not the downstream's " +
                          (downKey.kind == schema::RowKeyKind::AllColumns
                               ? std::string("(the downstream table has no key)")
                               : downKey.indexName + " (" + downKeyColumns + ")") +
                          ": rows of one key could be many downstream; give both the same key");
    }
    return table;
}

void TaskVerifier::applyRepair(const ComparedTable& table, const std::vector<RowDifference>& differences,
                               RepairOutcome& outcome) {
    RepairPlan plan(table, differences);
    outcome.sql += plan.sqlText();
    outcome.statements += plan.statements().size();
    try {
        if (repair_->beforeApply) {
            repair_->beforeApply(table, differences, plan);
        }
        applier_->apply(plan);
        outcome.applied = true;
    } catch (const Error& e) {
        outcome.error = e.what();
    }
}

TableVerifyResult TaskVerifier::verifyTable(TableVerifier& verifier, const ComparedTable& table) {
    if (!repair_) {
        verifier.setConfirmedHandler(nullptr);
        return verifier.verify(table);
    }
    RepairOutcome outcome;
    bool applyKeyed = repair_->apply && table.hasKey();
    // A keyed table is repaired batch by batch of confirmed rows (VerifySettings::confirmRows) while they
    // are locked upstream, so the task cannot change them between the comparison and the repair.
    verifier.setConfirmedHandler(applyKeyed ? ConfirmedDifferencesHandler([&](const ComparedTable& compared,
                                                                              const std::vector<RowDifference>& found) {
        applyRepair(compared, found, outcome);
    })
                                            : nullptr);
    TableVerifyResult result = verifier.verify(table);
    if (result.differences.empty()) {
        return result;
    }
    if (!table.hasKey() && repair_->apply && repair_->applyKeyless) {
        applyRepair(table, result.differences, outcome);
    } else if (!applyKeyed) {
        RepairPlan plan(table, result.differences);
        outcome.sql = plan.sqlText();
        outcome.statements = plan.statements().size();
        outcome.skippedBecause = !repair_->apply ? "not asked to apply (--repair)"
                                                 : "a table without a key is repaired only when confirmed "
                                                   "(--confirm-keyless): rows equal in every column are changed "
                                                   "one copy at a time";
    }
    bool unsettled = std::any_of(result.differences.begin(), result.differences.end(),
                                 [](const RowDifference& difference) { return !difference.settled; });
    if (unsettled && applyKeyed) {
        outcome.skippedBecause =
            "some rows were not repaired: the task had not applied up to the locked point "
            "within the settle time";
    }
    if (outcome.applied && outcome.error.empty()) {
        outcome.stillDifferent = verifier.recheck(table, result.differences).size();
        outcome.rechecked = true;
    }
    result.repair = std::move(outcome);
    return result;
}

size_t TaskVerifier::laneCount(size_t tables) const {
    const size_t wanted = repair_ && repair_->apply ? 1 : std::max<size_t>(settings_.parallelTables, 1);
    return std::max<size_t>(std::min(wanted, tables), 1);
}

void TaskVerifier::reportProgress(size_t index, size_t count, const TableVerifyResult& result) {
    if (onProgress_) {
        std::lock_guard lock(progressMutex_);
        onProgress_(index, count, result);
    }
}

void TaskVerifier::runLane(ServerSession& upstream, ServerSession& downstream, TablePlanner& planner,
                           TaskProgress& progress, std::vector<std::optional<TableVerifyResult>>& results,
                           std::atomic<bool>& stop) {
    // Each lane carries its own pace from table to table (TableVerifier).
    TableVerifier verifier(upstream, downstream, progress, settings_);
    verifier.setCancelFlag(cancel_);
    while (!(cancel_ && cancel_->load()) && !stop.load()) {
        std::optional<TablePlanner::Taken> taken = planner.take();
        if (!taken) {
            return;
        }
        const size_t i = taken->index;
        const auto& [upstreamName, downstreamName] = planner.names(i);
        verifier.setProgressHandler(
            [this, i, count = planner.size()](const TableVerifyResult& result) { reportProgress(i, count, result); });
        TableVerifyResult result;
        try {
            result = verifyTable(verifier, taken->plan.get());
        } catch (const Error& e) {
            result.upstream = upstreamName;
            result.downstream = downstreamName;
            result.outcome = TableOutcome::Failed;
            result.problem = e.what();
            reportProgress(i, planner.size(), result);
        }
        results[i] = std::move(result);
    }
}

VerifyReport TaskVerifier::run() {
    auto started = std::chrono::steady_clock::now();
    upstream_ = std::make_unique<ServerSession>("upstream", target_.upstream);
    downstream_ = std::make_unique<ServerSession>("downstream", target_.downstream);
    VerifyReport report;
    report.hash = ChunkSql::kRowHash;
    report.taskProgress = progress_.describe();
    auto tables = replicatedTables(*upstream_, target_);
    // A table asked for by name that the upstream lacks (or the filters do not replicate) is an error,
    // never a silent pass.
    for (const auto& wanted : target_.onlyTables) {
        if (std::none_of(tables.begin(), tables.end(), [&](const auto& table) { return table.first == wanted; })) {
            TableVerifyResult missing;
            missing.upstream = wanted;
            missing.downstream = wanted;
            missing.outcome = TableOutcome::Failed;
            missing.problem = "upstream table " + wanted.text() + " does not exist on " + upstream_->describe() +
                              ", or the task's block-allow list does not replicate it";
            report.tables.push_back(std::move(missing));
        }
    }
    if (repair_ && repair_->apply) {
        applier_ = std::make_unique<RepairApplier>(target_.downstream, repair_->sessionVariables);
    }
    const size_t lanes = laneCount(tables.size());
    // Every lane's sessions are opened here, so that a server out of reach fails the run at the start.
    std::vector<std::pair<std::unique_ptr<ServerSession>, std::unique_ptr<ServerSession>>> laneSessions;
    for (size_t lane = 1; lane < lanes; ++lane) {
        auto upstream = std::make_unique<ServerSession>("upstream", target_.upstream);
        auto downstream = std::make_unique<ServerSession>("downstream", target_.downstream);
        laneSessions.emplace_back(std::move(upstream), std::move(downstream));
    }
    const size_t tableCount = tables.size();
    TablePlanner planner(target_.upstream, target_.downstream, std::move(tables), &TaskVerifier::planTable);
    SerializedTaskProgress progress(progress_);
    std::vector<std::optional<TableVerifyResult>> results(tableCount);
    // A lane that fails outside a table (not a server's error: those fail the table) stops the others
    // taking tables; the first such failure is thrown once every lane has ended.
    std::atomic<bool> stop{false};
    std::vector<std::exception_ptr> failures(lanes);
    auto lane = [&](size_t number, ServerSession& upstream, ServerSession& downstream) {
        try {
            runLane(upstream, downstream, planner, progress, results, stop);
        } catch (...) {
            failures[number] = std::current_exception();
            stop.store(true);
        }
    };
    std::vector<std::thread> threads;
    threads.reserve(laneSessions.size());
    for (size_t number = 1; number < lanes; ++number) {
        auto& [upstream, downstream] = laneSessions[number - 1];
        threads.emplace_back(lane, number, std::ref(*upstream), std::ref(*downstream));
    }
    lane(0, *upstream_, *downstream_);
    for (auto& thread : threads) {
        thread.join();
    }
    for (const auto& failure : failures) {
        if (failure) {
            std::rethrow_exception(failure);
        }
    }
    // In the list's order; tables not taken because of a cancel are left out, as before.
    for (auto& result : results) {
        if (!result) {
            report.cancelled = true;
            continue;
        }
        report.cancelled = report.cancelled || result->outcome == TableOutcome::Cancelled;
        report.tables.push_back(std::move(*result));
    }
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return report;
}

}  // namespace syncscope::verify
