// DDL upstream while a load reads its snapshot. The snapshot's definitions are read while its lock
// holds every DDL back, the targets are created from them, and DDL after the snapshot point is
// replayed by incremental replication; but MariaDB's snapshot cannot read a table that a DDL rebuilt
// or replaced after the snapshot began (an ALTER that rebuilds, TRUNCATE, CREATE, some ADD INDEX: error
// 1412; DROP, RENAME: 1146). The rows of such a table that are not yet copied cannot be read as of the
// snapshot point, so the load stops with an error that names the table and says what to do.
#pragma once

#include <string>

#include "engine/binlog/location.h"
#include "engine/load/load_error.h"
#include "engine/load/load_plan.h"

namespace syncscope::load {

// 1412 (ER_TABLE_DEF_CHANGED) or 1146 (ER_NO_SUCH_TABLE) from a snapshot read.
bool changedAfterSnapshot(unsigned code);

// Not retryable: every new snapshot would hold rows of a definition the copied chunks do not have.
// `reading`: what was being read ("chunk shop.orders.00003", "the key of ... to plan its chunks").
LoadError changedAfterSnapshotError(const TableName& table, const binlog::Location& snapshotPoint,
                                    const std::string& reading, const std::string& serverMessage);

}  // namespace syncscope::load
