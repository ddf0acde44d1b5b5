// Runs a DDL the pipeline has read and planned, once every row before it is downstream and its points are
// persisted (the barrier flush before a DDL): downstream as it is, or inside the replay window as the
// window's judge decides (run, passed over, held open). It logs what was done and why, and tells the schema
// tracker, the replay window and the foreign-key cache that the tables changed. A DDL that fails downstream
// is thrown as DdlFailed, for the pipeline to report as the session's failed event.
#pragma once

#include <string>

#include "engine/binlog/location.h"
#include "engine/task/ddl_statement.h"
#include "engine/task/pipeline_control.h"
#include "engine/task/replay_window.h"

namespace syncscope::schema {
class SchemaTracker;
}

namespace syncscope::task {

struct DdlFailed {
    std::string sql;
    int code = 0;
    std::string message;  // one line: where, why it ran (replayed), the server's error and the statement
    bool retryable = false;
};

class DdlRunner {
public:
    // Everything given must outlive the runner.
    DdlRunner(const std::string& taskName, PipelineControl& control, schema::SchemaTracker& schemas,
              ReplayWindow& replay);

    // Runs `plan` (an Apply plan) read at `at`; `replayed`: `at` lies in the replay window. Throws DdlFailed.
    void run(const DdlPlan& plan, const binlog::Location& at, bool replayed);

private:
    void tablesChanged(const DdlPlan& plan);

    const std::string& taskName_;
    PipelineControl& control_;
    schema::SchemaTracker& schemas_;
    ReplayWindow& replay_;
};

}  // namespace syncscope::task
