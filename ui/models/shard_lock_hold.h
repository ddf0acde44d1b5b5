// Why a table point may run ahead of its source's global point without an anomaly (shard-mode): while a shard
// DDL lock waits, every source whose shard table read the DDL holds its global point before it, and that
// source's other tables go on applying. Shared by the table checkpoints, the ruler and the header.
#pragma once

#include <string>

#include "engine/task/status_snapshot.h"

namespace syncscope::ui {

// The lock that holds the global point of `sourceId`: one waiting in which a shard table of the source read the
// DDL, or one that ran downstream while the source still re-syncs from the held point; null when none. An empty
// `sourceId` (a task with one source and no source-id) matches any source.
const task::ShardLockStatus* lockHoldingSource(const task::StatusSnapshot& snapshot, const std::string& sourceId);

// The source a table row belongs to: the snapshot's one source; for the whole of a task with several sources
// (whose status lists every source's tables, without their source), the one source the locks name with this
// table, or else with its schema. "" with `known` false when it cannot be told.
std::string sourceOfTable(const task::TablePointView& table, const task::StatusSnapshot& snapshot, bool* known);

// The waiting lock that holds the global point of the table's source; null when none does, or when the table's
// source cannot be told (its point ahead stays an anomaly).
const task::ShardLockStatus* lockHoldingTable(const task::TablePointView& table, const task::StatusSnapshot& snapshot);

}  // namespace syncscope::ui
