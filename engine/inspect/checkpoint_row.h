// One row of a checkpoint table exactly as stored, before any interpretation: the inspector reads
// tables written by DM itself too, whose values may be empty, NULL or from older DM versions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace syncscope::inspect {

struct CheckpointRow {
    std::string sourceId;  // DM's id column: the source-id
    std::string schema;    // cp_schema, empty for the global row
    std::string table;     // cp_table, empty for the global row
    std::string binlogName;
    std::optional<uint64_t> binlogPos;  // nullopt for NULL
    std::string binlogGtid;             // "" for NULL or empty (DM writes "" without GTIDs)
    std::string exitSafeBinlogName;
    std::optional<uint64_t> exitSafeBinlogPos;
    std::string exitSafeBinlogGtid;
    std::string tableInfo;  // JSON text; "null" when DM stored no structure
    bool isGlobal = false;
    std::string createTime;
    std::string updateTime;
};

// One checkpoint table: `<metaSchema>`.`<task>_syncer_checkpoint` with its rows.
struct CheckpointTableRows {
    std::string metaSchema;
    std::string tableName;
    std::string taskName;  // the table name without "_syncer_checkpoint"
    std::vector<CheckpointRow> rows;
    std::string problem;  // why the table could not be read as a checkpoint table; empty when it could
};

}  // namespace syncscope::inspect
