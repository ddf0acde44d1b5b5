// Schema first: each routed target database and table is created downstream from the upstream's own
// definition (SHOW CREATE TABLE, renamed by the route) before any row is copied. A target that
// already exists must have the same columns; a different one is an error naming the columns.
#pragma once

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

// Creates missing targets (databases too) and checks existing ones. Throws LoadError naming the
// target, the upstream table and each differing column; tables created before the error stay (an
// identical table is accepted when the load starts again).
void writeTargetSchemas(source::UpstreamConnection& upstream, sql::Connection& downstream,
                        const std::vector<LoadTable>& tables);

}  // namespace syncscope::load
