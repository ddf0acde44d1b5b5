#include "engine/apply/batch_order.h"

#include <algorithm>
#include <optional>
#include <span>

#include "engine/apply/key_rounds.h"

namespace syncscope::apply {

using schema::RowKeyKind;
using schema::TableSchema;

namespace {

int kindRank(const Step& step) {
    switch (step.kind) {
        case StepKind::Delete:
            return 0;
        case StepKind::Write:
            return step.write == WriteMode::Insert ? 1 : 2;
        case StepKind::Update:
            return 3;
    }
    return 3;
}

// Whether sharing no causality key means commuting for a run of one table's steps, so that they may be
// ordered by conflict rounds: one structure (the same schema object: key positions mean the same
// columns), the downstream's unique indexes known (the causality keys cover them all), a row key, no
// trigger (it could see the order), no cascade, no safe mode (a REPLACE deletes whatever collides
// downstream, values no image names), and the session's foreign key checks off.
bool conflictRoundsApply(std::span<const Step> run, bool foreignKeyChecks) {
    const TableSchema& table = *run.front().change->table;
    return !foreignKeyChecks && !table.downstreamUniqueIndexes().empty() && !table.downstreamHasTriggers() &&
           table.cascadeFamily().name.empty() && table.rowKey().kind != RowKeyKind::AllColumns &&
           !table.causalityByWholeTable() && std::all_of(run.begin(), run.end(), [&](const Step& step) {
               return step.change->table.get() == &table && !step.change->safeMode;
           });
}

// Sorts a run of one table's steps by conflict round, then kind (key_rounds.h); false when a change
// carries no keys.
bool orderByConflictRounds(std::span<Step> run) {
    thread_local std::vector<const RowChange*> changes;
    changes.clear();
    for (const Step& step : run) {
        changes.push_back(step.change);
    }
    std::optional<std::vector<uint32_t>> rounds = conflictRounds(changes);
    if (!rounds) {
        return false;
    }
    for (size_t i = 0; i < run.size(); ++i) {
        run[i].round = (*rounds)[i];
    }
    std::stable_sort(run.begin(), run.end(), [](const Step& a, const Step& b) {
        return a.round != b.round ? a.round < b.round : kindRank(a) < kindRank(b);
    });
    return true;
}

}  // namespace

bool sameShape(const TableSchema& a, const TableSchema& b) {
    if (&a == &b) {
        return true;
    }
    if (a.name() != b.name() || a.columns().size() != b.columns().size() || a.rowKey().columns != b.rowKey().columns) {
        return false;
    }
    for (size_t i = 0; i < a.columns().size(); ++i) {
        if (a.columns()[i].name != b.columns()[i].name) {
            return false;
        }
    }
    return true;
}

// Puts the steps of each table together, keeping their order within the table, so that more of them
// merge into one statement (sysbench-like workloads touch a few tables in turn: one row each). Safe
// because a batch never spans a DDL (a barrier), foreign key checks are off on the workers (as in DM),
// and changes to different tables cannot touch the same row. A failed batch is replayed row by row in
// the original order, so the failing row is still found exactly.
void groupByTable(std::vector<Step>& steps) {
    if (steps.size() < 3) {
        return;
    }
    // A table's own group, or its cascade family's: a family's changes keep their order across its tables.
    auto sameGroup = [](const TableSchema& a, const TableSchema& b) {
        const std::string& family = a.cascadeFamily().name;
        return family == b.cascadeFamily().name && (!family.empty() || a.name() == b.name());
    };
    std::vector<const TableSchema*> groups;  // a table of each group, in order of first appearance; batches touch few
    std::vector<size_t> groupOf(steps.size());
    for (size_t i = 0; i < steps.size(); ++i) {
        const TableSchema& table = *steps[i].change->table;
        size_t group = 0;
        while (group < groups.size() && !sameGroup(*groups[group], table)) {
            ++group;
        }
        if (group == groups.size()) {
            groups.push_back(&table);
        }
        groupOf[i] = group;
    }
    if (groups.size() < 2) {
        return;
    }
    std::vector<Step> grouped;
    grouped.reserve(steps.size());
    for (size_t group = 0; group < groups.size(); ++group) {
        for (size_t i = 0; i < steps.size(); ++i) {
            if (groupOf[i] == group) {
                grouped.push_back(steps[i]);
            }
        }
    }
    steps = std::move(grouped);
}

// Each table's run of steps in conflict-round or key-round order where that is safe
// (engine/apply/key_rounds.h), so that the deletes, inserts and updates of a round come together and merge.
void orderEachTableByRounds(std::vector<Step>& steps, bool foreignKeyChecks) {
    std::vector<KeyedStep> keyed;
    size_t begin = 0;
    while (begin < steps.size()) {
        size_t end = begin + 1;
        while (end < steps.size() && steps[end].change->table->name() == steps[begin].change->table->name()) {
            ++end;
        }
        std::span<Step> run(steps.data() + begin, end - begin);
        if (run.size() > 1 && conflictRoundsApply(run, foreignKeyChecks) && orderByConflictRounds(run)) {
            begin = end;
            continue;
        }
        // One structure for the whole run (a table map can change without a DDL the task applies, e.g. a
        // filtered ALTER): key values are compared column for column.
        const TableSchema& first = *steps[begin].change->table;
        // A cascade family keeps its binlog order (a parent's DELETE cascades to rows no step names).
        bool oneShape = first.cascadeFamily().name.empty() &&
                        std::all_of(steps.begin() + static_cast<std::ptrdiff_t>(begin),
                                    steps.begin() + static_cast<std::ptrdiff_t>(end),
                                    [&](const Step& step) { return sameShape(first, *step.change->table); });
        keyed.clear();
        for (size_t i = begin; oneShape && i < end; ++i) {
            keyed.push_back({steps[i].change, steps[i].image, kindRank(steps[i])});
        }
        if (auto order = oneShape ? keyRoundOrder(keyed) : std::nullopt) {
            std::vector<Step> sorted;
            sorted.reserve(order->size());
            for (size_t position : *order) {
                sorted.push_back(steps[begin + position]);
            }
            std::copy(sorted.begin(), sorted.end(), steps.begin() + static_cast<std::ptrdiff_t>(begin));
        }
        begin = end;
    }
}

}  // namespace syncscope::apply
