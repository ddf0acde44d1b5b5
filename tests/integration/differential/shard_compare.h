// The oracle for the shard-merge feature: the downstream's merged table against the union of the replica's
// shard tables (which MariaDB's replica keeps apart, as the upstream has them). Every shard's definition
// (columns, indexes) after the DDLs is the target's; the rows, compared exactly as multisets, are the
// union's.
#pragma once

#include <string>

#include "tests/integration/differential/divergence.h"
#include "tests/integration/differential/shard_group.h"
#include "tests/integration/differential/sql_session.h"

namespace syncscope::differential {

// Empty when the target equals the union of the shards.
Divergences compareShardGroup(SqlSession& replica, SqlSession& downstream, const std::string& database,
                              const ShardGroup& group);

}  // namespace syncscope::differential
