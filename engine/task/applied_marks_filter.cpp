#include "engine/task/applied_marks_filter.h"

#include <algorithm>

#include <spdlog/spdlog.h>

namespace syncscope::task {

void AppliedMarksFilter::reset(apply::AppliedMarks marks, const binlog::Location& global) {
    marks_.clear();
    for (auto& [table, mark] : marks) {
        if (global.position().isEmpty() || mark.event > global.position()) {
            marks_[table] = {std::move(mark), 0};
        }
    }
    for (const auto& [table, replay] : marks_) {
        spdlog::info(
            "task {}: {} has no key: its rows up to {} were committed downstream before the last stop and are "
            "not applied again",
            taskName_, table.text(), replay.mark.text());
    }
}

size_t AppliedMarksFilter::filter(std::vector<apply::RowChange>& changes, const binlog::BinlogPosition& eventEnd,
                                  bool inReplayWindow) {
    if (changes.empty() || changes.front().table->rowKey().kind != schema::RowKeyKind::AllColumns) {
        return 0;  // one event's rows are of one table
    }
    for (apply::RowChange& change : changes) {
        change.recordApplied = true;
    }
    if (marks_.empty()) {
        return 0;
    }
    auto table = marks_.find(changes.front().target());
    if (table == marks_.end()) {
        return 0;
    }
    if (!inReplayWindow) {
        passed(table);
        return 0;
    }
    const apply::AppliedMark& mark = table->second.mark;
    auto applied = [&](const apply::RowChange& change) {
        return apply::AppliedMark{eventEnd, change.rowInEvent} <= mark;
    };
    size_t before = changes.size();
    changes.erase(std::remove_if(changes.begin(), changes.end(), applied), changes.end());
    size_t removed = before - changes.size();
    table->second.skipped += removed;
    if (eventEnd > mark.event) {
        passed(table);
    }
    return removed;
}

void AppliedMarksFilter::passed(std::map<schema::TableName, Replay>::iterator table) {
    spdlog::info(
        "task {}: replay of {} passed its applied mark {}: {} rows were already downstream and not applied "
        "again",
        taskName_, table->first.text(), table->second.mark.text(), table->second.skipped);
    marks_.erase(table);
}

}  // namespace syncscope::task
