// What is wrong with a table checkpoint, and the words a DBA needs to understand it. Shared by the
// table model (flag column, tooltip), the ruler and the Resume-from preview so they all say the same.
#pragma once

#include <QString>

#include "engine/task/status_snapshot.h"

namespace syncscope::ui {

enum class CheckpointAnomaly {
    None,
    AheadOfGlobal,   // a resume skips this table's events up to its point (docs/design.md invariant 3)
    BeyondUpstream,  // the point is past the upstream's current position: another server's binlog?
    FilePurged,      // the point is in a binlog file the upstream no longer has
    // Not an anomaly: ahead of a global point that a shard DDL lock holds (shard-mode) while the source's other
    // tables go on applying (shard_lock_hold.h).
    AheadForShardLock,
};

// Whether the state is one to flag (AheadForShardLock and None are not).
bool isAnomaly(CheckpointAnomaly anomaly);

CheckpointAnomaly anomalyOf(const task::TablePointView& table, const task::StatusSnapshot& snapshot);

// Short text for the flag column.
QString anomalyLabel(CheckpointAnomaly anomaly);

// The tooltip: which events a resume would skip or why the point cannot be used, and why it matters.
QString anomalyExplanation(const task::TablePointView& table, const task::StatusSnapshot& snapshot);

QString pointText(const task::PointView& point);
QString qualifiedName(const task::TablePointView& table);

}  // namespace syncscope::ui
