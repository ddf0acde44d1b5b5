// Schema first: each routed target database and table is created downstream from the upstream's own
// definition as of the load's snapshot (SHOW CREATE TABLE read while the snapshot's global read lock
// holds every DDL back, renamed by the route) before any row is copied. A target that already exists
// must have the same columns; a different one is an error naming the columns.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/load/load_plan.h"
#include "engine/source/upstream_connection.h"

namespace sql {
class Connection;
}

namespace syncscope::load {

// "CREATE TABLE IF NOT EXISTS `ts`.`tt` ..." from SHOW CREATE TABLE's text for the upstream table.
// Throws LoadError when the text does not start with CREATE TABLE and a quoted name.
std::string renamedCreateTable(const std::string& showCreateTable, const TableName& target);

struct ColumnShape {
    std::string name;
    std::string type;  // COLUMN_TYPE, e.g. "int(11) unsigned"
};

// One upstream table's definition: SHOW CREATE TABLE's text and its columns.
struct TableDefinition {
    std::string createTable;
    std::vector<ColumnShape> columns;
};

// By quoted upstream name. Read while no DDL can commit (under the snapshot's lock), they are the
// definitions the snapshot reads rows of, and the ones incremental replication replays later DDL onto.
using TableDefinitions = std::map<std::string, TableDefinition>;
TableDefinitions readTableDefinitions(source::UpstreamConnection& upstream, const std::vector<LoadTable>& tables);

// Creates missing targets (databases too) and checks existing ones against `definitions`. Throws
// LoadError naming the target, the upstream table and each differing column; tables created before
// the error stay (an identical table is accepted when the load starts again). `copiedBefore`: upstream
// tables (quoted) with chunks committed at an earlier snapshot: a difference there means a DDL upstream
// since then, and the error says to start the load over instead of dropping the target.
void writeTargetSchemas(sql::Connection& downstream, const std::vector<LoadTable>& tables,
                        const TableDefinitions& definitions, const std::vector<std::string>& copiedBefore = {});

// The targets of `tables` that already hold rows (before a new load plan copies anything): their rows
// stay beside the copied ones (by on-duplicate-logical where a key matches), so the DBA is told.
std::vector<TableName> targetsHoldingRows(sql::Connection& downstream, const std::vector<LoadTable>& tables);

}  // namespace syncscope::load
