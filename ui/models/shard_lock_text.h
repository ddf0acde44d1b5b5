// How the GUI says where a shard DDL lock stands (shard-mode): the header's line ("Shard DDL lock on sm.t waits
// for 1 of 3 shard tables (sm-second:sm_3.t) for 2 min"), why a table point is ahead of a held global point, and
// the times and DDLs of the Shard locks page.
#pragma once

#include <QColor>
#include <QString>

#include "engine/task/status_snapshot.h"

namespace syncscope::ui {

// A shard lock and the table points ahead of the global point it holds (the ruler, the Flag column): amber, for
// expected but worth a look, apart from the red of an anomaly.
inline const QColor kShardLockColor(191, 120, 0);

// "sm_1.t".
QString shardTableText(const task::ShardLockStatus::Shard& shard);
// "sm-second:sm_3.t".
QString shardWithSourceText(const task::ShardLockStatus::Shard& shard);
// The DDLs as they run downstream, one line each.
QString shardLockDdlsText(const task::ShardLockStatus& lock);
// "45 s", "3 min", "1 h 5 min": how long a lock or an arrival has waited.
QString waitedText(int64_t seconds);
// "15:42:07 (for 3 min)": Unix seconds as local time, and how long before `now`.
QString sinceText(int64_t since, task::Clock::time_point now);

// The header's line for a lock that waits (or, ran downstream, whose sources re-sync).
QString shardLockLine(const task::ShardLockStatus& lock, task::Clock::time_point now);
// shard-mode optimistic: "Column c of sm.t, added by sm-first:sm_1.t, is awaited from 2 shard tables
// (sm-first:sm_2.t, sm-second:sm_3.t): their rows take its default".
QString shardColumnLine(const task::ShardColumnStatus& column);
// Why a table of `sourceId` is ahead of the global point that `lock` holds: the source's arrival (which shard
// table read which DDL where) and the shard tables waited for.
QString shardLockHoldText(const task::ShardLockStatus& lock, const std::string& sourceId);

}  // namespace syncscope::ui
