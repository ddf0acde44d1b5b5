// What the worker pool has done, for the status snapshot: rows committed per target table, queue
// depths, transactions, barriers and conflicts.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "engine/apply/commit_slots.h"

#include "engine/schema/table_name.h"

namespace syncscope::apply {

struct ApplyCounters {
    std::map<schema::TableName, uint64_t> rowsAppliedByTable;  // committed rows per target table
    // Committed UPDATEs and DELETEs (outside safe mode) whose row the downstream did not have, per target
    // table: drift between upstream and downstream that would otherwise pass unseen.
    std::map<schema::TableName, uint64_t> rowsUnmatchedByTable;
    uint64_t rowsUnmatched = 0;
    uint64_t rowsApplied = 0;
    uint64_t transactionsCommitted = 0;
    uint64_t barriers = 0;              // every barrier(), including those for conflicts
    uint64_t conflicts = 0;             // changes whose keys were held by two workers
    uint64_t errors = 0;                // worker errors since the pool was made
    std::vector<uint64_t> queueDepths;  // per worker: dispatched, not yet taken into a batch
    std::vector<uint64_t> pendingRows;  // per worker: taken, not yet committed
    uint64_t queuedBytes = 0;           // all queues: bytes of the changes dispatched, not yet taken
    ConcurrencyView concurrency;        // transactions open downstream: busy, allowed, ceiling, why
};

}  // namespace syncscope::apply
