// The status snapshot as the control API answers it: JSON with snake_case keys, using the names of DM's
// query-status where DM has the same thing (stage, master_binlog, syncer_binlog, ...), plus what DM
// lacks: the in-memory global point, every table point with its ahead-of-global flag, the failed event.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "engine/task/status_snapshot.h"

namespace syncscope::control {

// DM's text for a position: "(mysql-bin.000003, 1234)"; "" when the point is unknown.
std::string dmBinlogText(const task::PointView& point);

// {binlog_name, binlog_pos, binlog_gtid, axis_bytes, text}; null when nothing is known.
nlohmann::json pointJson(const task::PointView& point);

// True when the persisted global point has reached the upstream's current position (DM's `synced`).
bool isSynced(const task::StatusSnapshot& status);

// ISO 8601 UTC with milliseconds, "2026-11-29T21:05:00.123Z".
std::string isoTime(task::Clock::time_point at);

nlohmann::json statusJson(const task::StatusSnapshot& status);
// A shard table as the status and syncscope-cli status name it: {"source", "schema", "table"}.
nlohmann::json shardTableJson(const std::string& sourceId, const TableName& table);
// The task's shard DDL locks (status "shard_locks", GET /api/v1/shard-locks).
nlohmann::json shardLocksJson(const std::vector<task::ShardLockStatus>& locks);
// shard-mode optimistic: the columns added by some shard tables and awaited from others.
nlohmann::json shardColumnsJson(const std::vector<task::ShardColumnStatus>& columns);

}  // namespace syncscope::control
