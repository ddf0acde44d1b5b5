// What the DM-compatible checkpoint table holds for one source: the global point, the exit-safe
// point and one point per upstream table, as values (no connection, no SQL).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/binlog/location.h"
#include "engine/checkpoint/checkpoint_tracker.h"

namespace syncscope::checkpoint {

inline constexpr std::string_view kDefaultMetaSchema = "dm_meta";
// DM names the table <task>_syncer_checkpoint (cputil.SyncerCheckpoint).
inline constexpr std::string_view kCheckpointTableSuffix = "_syncer_checkpoint";
// DM's column widths: id VARCHAR(32), binlog_pos INT UNSIGNED.
inline constexpr size_t kMaxSourceIdLength = 32;
inline constexpr uint64_t kMaxStoredBinlogOffset = 0xFFFFFFFFULL;
// DM writes the JSON text "null" for the global row and reads "null" as "no table structure stored".
inline constexpr std::string_view kNoTableInfo = "null";

// The table that holds `task`'s checkpoints: "<task>_syncer_checkpoint".
std::string checkpointTableName(std::string_view task);

struct PersistedCheckpoint {
    bool hasGlobalRow = false;
    binlog::Location globalPoint;    // empty without a global row
    binlog::Location exitSafePoint;  // empty when none was written
    std::vector<TablePoint> tablePoints;

    // Nothing stored for the source: start from the task's meta or the upstream's position.
    bool isEmpty() const { return !hasGlobalRow && tablePoints.empty(); }
};

}  // namespace syncscope::checkpoint
