#include "engine/task/applied_marks_filter.h"

#include <algorithm>
#include <memory>

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
    auto keyless = [](const apply::RowChange& change) {
        return change.table->rowKey().kind == schema::RowKeyKind::AllColumns;
    };
    bool any = false;
    for (apply::RowChange& change : changes) {
        change.recordApplied = keyless(change);
        any = any || change.recordApplied;
    }
    if (!any || marks_.empty()) {
        return 0;
    }
    // The tables of these changes that have a mark, looked up once each (an event has one table; a branch few).
    std::vector<std::map<schema::TableName, Replay>::iterator> seen;
    auto markOf = [&](const apply::RowChange& change) -> Replay* {
        for (auto table : seen) {
            if (table->first == change.target()) {
                return &table->second;
            }
        }
        auto table = marks_.find(change.target());
        if (table == marks_.end()) {
            return nullptr;
        }
        seen.push_back(table);
        return &table->second;
    };
    size_t removed = 0;
    if (inReplayWindow) {
        auto applied = [&](const apply::RowChange& change) {
            Replay* replay = change.recordApplied ? markOf(change) : nullptr;
            if (replay == nullptr || apply::AppliedMark{eventEnd, change.rowInEvent} > replay->mark) {
                return false;
            }
            ++replay->skipped;
            return true;
        };
        size_t before = changes.size();
        changes.erase(std::remove_if(changes.begin(), changes.end(), applied), changes.end());
        removed = before - changes.size();
    } else {
        for (const apply::RowChange& change : changes) {
            if (change.recordApplied) {
                markOf(change);
            }
        }
    }
    for (auto table : seen) {
        if (!inReplayWindow || eventEnd > table->second.mark.event) {
            passed(table);
        }
    }
    return removed;
}

size_t AppliedMarksFilter::filterBranch(std::vector<apply::RowChange>& changes, const apply::SourcePoint& commit,
                                        bool inReplayWindow) {
    auto at = std::make_shared<const apply::SourcePoint>(commit);
    for (size_t i = 0; i < changes.size(); ++i) {
        changes[i].rowInEvent = static_cast<uint32_t>(i);
        changes[i].markAt = at;
    }
    return filter(changes, binlog::BinlogPosition(commit.file, commit.pos), inReplayWindow);
}

void AppliedMarksFilter::passed(std::map<schema::TableName, Replay>::iterator table) {
    spdlog::info(
        "task {}: replay of {} passed its applied mark {}: {} rows were already downstream and not applied "
        "again",
        taskName_, table->first.text(), table->second.mark.text(), table->second.skipped);
    marks_.erase(table);
}

}  // namespace syncscope::task
