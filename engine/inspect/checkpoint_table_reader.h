// Reads checkpoint tables from a downstream, read-only (one READ ONLY transaction): ours or those
// written by a DM deployment, of any DM version (columns DM added later may be missing).
#pragma once

#include <string>
#include <vector>

#include "engine/apply/downstream_connection.h"
#include "engine/inspect/checkpoint_row.h"

namespace sql {
class Connection;
}

namespace syncscope::inspect {

class CheckpointTableReader {
public:
    explicit CheckpointTableReader(sql::Connection& connection) : connection_(connection) {}

    // Every `<task>_syncer_checkpoint` table of `metaSchema`, or only `task`'s when it is not empty.
    // A missing meta schema or task table throws apply::DownstreamError naming it; a table that is not
    // in a checkpoint table's shape is returned with `problem` set.
    std::vector<CheckpointTableRows> read(const std::string& metaSchema, const std::string& task);

private:
    std::vector<std::string> checkpointTables(const std::string& metaSchema, const std::string& task);
    CheckpointTableRows readTable(const std::string& metaSchema, const std::string& tableName);

    sql::Connection& connection_;
};

}  // namespace syncscope::inspect
