#include "engine/task/replay_window.h"

#include <spdlog/spdlog.h>

namespace syncscope::task {

using binlog::Location;
using binlog::PositionOrder;

ReplayWindow::ReplayWindow(const TaskSetup& setup, PipelineControl& control)
    : setup_(setup),
      control_(control),
      rows_([this](const schema::TableName& target) { return control_.loadSchema(target); }) {}

bool ReplayWindow::replayedByResumeFrom(const Location& at) const {
    const Location& previous = setup_.appliedBeforeResumeFrom;
    if (previous.isEmpty()) {
        return false;
    }
    PositionOrder order = at.compare(previous);
    return order == PositionOrder::Before || order == PositionOrder::Same;
}

void ReplayWindow::fitRows(std::vector<apply::RowChange>& changes, const Location& at) {
    if (changes.empty() || !replayedByResumeFrom(at)) {
        return;
    }
    const ReplayedRowsFitter::Fit& fit = rows_.fit(changes.front().table);
    if (!fit.tableAbsent && fit.absentColumns.empty()) {
        return;
    }
    open_ = true;
    const schema::TableName& target = changes.front().table->name();
    control_.replayedRowsUnfit(target, fit.absentColumns, at.toString());
    if (fit.tableAbsent) {
        spdlog::info(
            "task {}: replayed rows of {} at {} not applied: the table is not downstream (a DDL of the "
            "replay window must drop or rename it)",
            setup_.taskName, target.text(), at.toString());
        changes.clear();
        return;
    }
    for (apply::RowChange& change : changes) {
        change.table = fit.table;
    }
}

DdlOutcome ReplayWindow::runDdl(const DdlPlan& plan, const Location& at) {
    open_ = true;
    return control_.applyDdl(plan, at.toString());
}

std::optional<std::string> ReplayWindow::endOnceGlobalPasses(const Location& global, const Location& end) {
    if (!open_) {
        return std::nullopt;
    }
    try {
        if (global.compare(end) == PositionOrder::Before) {
            return std::nullopt;
        }
    } catch (const binlog::PositionError&) {
        return std::nullopt;
    }
    open_ = false;
    std::vector<std::string> conflicts = control_.endReplayWindow();
    if (conflicts.empty()) {
        spdlog::info(
            "task {}: the replay window ended at {}: every replayed DDL was placed by the downstream's "
            "definitions",
            setup_.taskName, end.toString());
        return std::nullopt;
    }
    std::string message = "replayed DDL does not match the downstream's definitions";
    for (const std::string& conflict : conflicts) {
        message += "; " + conflict;
    }
    message +=
        ". Make the downstream table match the replayed history (or the history match it) and resume, or "
        "resume-from the DDL's position to judge it again";
    return message;
}

}  // namespace syncscope::task
