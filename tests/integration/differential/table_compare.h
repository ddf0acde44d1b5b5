// The oracle check: every table of the case's database on our downstream equals the native replica's.
// Table sets and column lists first, then CHECKSUM TABLE, then (for a table whose checksum differs)
// the rows as multisets, naming a few rows missing downstream and a few extra ones.
#pragma once

#include <string>

#include "tests/integration/differential/divergence.h"
#include "tests/integration/differential/sql_session.h"

namespace syncscope::differential {

// Empty when the downstream equals the replica.
Divergences compareWithReplica(SqlSession& replica, SqlSession& downstream, const std::string& database);

// True when every table's checksum is equal (a cheap poll while the engine catches up).
bool checksumsEqual(SqlSession& replica, SqlSession& downstream, const std::string& database);

}  // namespace syncscope::differential
