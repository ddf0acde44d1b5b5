// Confirms suspect rows (keys whose hashes differed) the way that keeps a verify exact beside a running
// task: the upstream rows locked, then the downstream read once the task has applied up to the locked
// point (online_exactness in README.md). Each side's suspects are read in one statement per batch.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/verify/compared_table.h"
#include "engine/verify/server_session.h"
#include "engine/verify/task_progress.h"
#include "engine/verify/verify_result.h"
#include "engine/verify/verify_settings.h"

namespace syncscope::verify {

// Called with a batch of confirmed differences while their upstream rows are still locked, so that
// a repair applied here cannot race the task's own changes to those rows.
using ConfirmedDifferencesHandler =
    std::function<void(const ComparedTable& table, const std::vector<RowDifference>& differences)>;

class RowConfirmer {
public:
    RowConfirmer(ServerSession& upstream, ServerSession& downstream, TaskProgress& progress,
                 const VerifySettings& settings, const std::atomic<bool>* cancel)
        : upstream_(upstream), downstream_(downstream), progress_(progress), settings_(settings), cancel_(cancel) {}

    // The suspects that really differ, each with both row images. In one upstream transaction: every
    // suspect read with a shared lock (which also locks the gap of an absent key), so no upstream
    // transaction can change them any more and every earlier change is in the binlog before the position
    // read next; then the wait for the task to apply up to that position, then the downstream's rows.
    // `handToRepair` (when set) gets the settled differences before the locks are released. A lock wait
    // timeout or a deadlock (under a write load the upstream may pick the confirmation as the victim)
    // retries the whole confirmation after a short pause (settings.lockAttempts).
    std::vector<RowDifference> confirm(const ComparedTable& table, const std::vector<RowDifference>& suspects,
                                       const ConfirmedDifferencesHandler* handToRepair);

    // Waits until the task has applied up to `point`; false when the settle time ran out first.
    bool waitUntilApplied(const binlog::Location& point);
    // Why a wait ran out ("" when every wait saw the task apply up to its point): a table note, so that
    // a DBA knows rows were compared without the applied point's guarantee.
    const std::string& unsettled() const { return unsettled_; }

private:
    // Each suspect's row on one side (nullopt: absent), settings.confirmLookups keys per statement.
    std::vector<std::optional<RowValues>> rowsOf(ServerSession& side, const ComparedTable& table,
                                                 const schema::TableName& name,
                                                 const std::vector<RowDifference>& suspects, bool lock);
    bool cancelled() const { return cancel_ && cancel_->load(); }

    ServerSession& upstream_;
    ServerSession& downstream_;
    TaskProgress& progress_;
    const VerifySettings& settings_;
    const std::atomic<bool>* cancel_;
    std::string unsettled_;
};

}  // namespace syncscope::verify
