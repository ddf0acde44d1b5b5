// Runs a DDL downstream on the syncer's control connection. Outside a replay window every error is an
// error: a colliding second ADD COLUMN must never be passed over. Inside one (the events between the
// global point and the persisted exit-safe point: after resume-from an earlier point, a skip or an
// unclean stop) each DDL is first judged by the downstream's definitions (replayed_ddl_judge.h): one
// proven applied is passed over, one the definitions cannot place yet is held open, the rest run.
#pragma once

#include <string>

#include "engine/task/ddl_statement.h"

namespace sql {
class Connection;
}

namespace syncscope::task {

struct DdlOutcome {
    bool applied = false;        // it ran now
    bool appliedBefore = false;  // it had run before (a replay window), the evidence says how we know
    bool deferred = false;       // a replayed DDL the definitions cannot place yet (not run; evidence says why)
    std::string evidence;
    int errorCode = 0;  // when none of these
    std::string error;
};

class DdlApplier {
public:
    explicit DdlApplier(sql::Connection& control) : control_(control) {}

    // Runs `plan`; every error is the outcome's.
    DdlOutcome apply(const DdlPlan& plan);

private:
    sql::Connection& control_;
};

}  // namespace syncscope::task
