// The replay window of one session: the events between its start and the point the last run may have applied
// up to (after a resume-from an earlier point, a skip, or an unclean stop). Its DDLs are judged by the
// downstream's definitions (replayed_ddl_judge.h, through the pipeline's control port) and the rows a
// resume-from replays are fitted to the downstream's tables (replayed_rows.h). The window is open once the
// first DDL is judged or the first rows do not fit; it ends when the global point has passed its end, and
// then whatever the downstream did not explain stops the task, naming both definitions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/apply/row_change.h"
#include "engine/binlog/location.h"
#include "engine/task/ddl_applier.h"
#include "engine/task/ddl_statement.h"
#include "engine/task/pipeline_control.h"
#include "engine/task/replayed_rows.h"
#include "engine/task/task_setup.h"

namespace syncscope::task {

class ReplayWindow {
public:
    // `setup` and `control` must outlive the window.
    ReplayWindow(const TaskSetup& setup, PipelineControl& control);

    // Rows read at `at` inside the window, when a resume-from replays them (they were applied before for
    // sure): fitted to the downstream's table (columns it lacks left out), or all dropped when the table is
    // not downstream (a DDL of the window must then drop or rename it).
    void fitRows(std::vector<apply::RowChange>& changes, const binlog::Location& at);

    // A DDL read at `at` inside the window: judged, then run, passed over or held open.
    DdlOutcome runDdl(const DdlPlan& plan, const binlog::Location& at);

    // After any DDL: the downstream's tables may have changed.
    void downstreamChanged() { rows_.forgetAll(); }

    bool isOpen() const { return open_; }

    // Between groups: once `global` has passed `end` (safe mode's end), the window ends. Returns the message
    // that stops the task when a judged DDL or unfit rows are left unexplained; nullopt otherwise.
    std::optional<std::string> endOnceGlobalPasses(const binlog::Location& global, const binlog::Location& end);

private:
    // Only rows a resume-from replays were applied before for sure; after an error or an unclean stop a row
    // the downstream cannot take fails as itself (its failed event can be fixed or skipped).
    bool replayedByResumeFrom(const binlog::Location& at) const;

    const TaskSetup& setup_;
    PipelineControl& control_;
    ReplayedRowsFitter rows_;
    bool open_ = false;
};

}  // namespace syncscope::task
