// Runs a DDL downstream on the syncer's control connection. A DDL counts as "possibly applied" only
// when it is exactly the one whose execution may have begun before an unclean stop: before running a
// DDL the syncer persists the exit-safe point at that DDL's end (nothing past it is dispatched yet), so
// after a kill the persisted exit-safe point names it. Only that DDL's "already exists" / "does not
// exist" answer is taken as "applied before the stop"; anywhere else such an answer is a real schema
// conflict and fails (issue: a colliding second ADD COLUMN must never be passed over).
#pragma once

#include <string>

#include "engine/task/ddl_statement.h"

namespace sql {
class Connection;
}

namespace syncscope::task {

struct DdlOutcome {
    bool applied = false;        // it ran now
    bool appliedBefore = false;  // it had run before the last unclean stop
    int errorCode = 0;           // when neither
    std::string error;
};

class DdlApplier {
public:
    explicit DdlApplier(sql::Connection& control) : control_(control) {}

    // Runs `plan`; `possiblyApplied` says whether this DDL may have run before an unclean stop.
    DdlOutcome apply(const DdlPlan& plan, bool possiblyApplied);

    // The answers a DDL that already ran gives when it runs again.
    static bool isAlreadyAppliedError(int code);

private:
    sql::Connection& control_;
};

}  // namespace syncscope::task
