// The oracle check: every table of the case's database on our downstream equals the native replica's.
// Table sets and column lists first, then CHECKSUM TABLE, then (for a table whose checksum differs)
// the rows as multisets, naming a few rows missing downstream and a few extra ones.
#pragma once

#include <map>
#include <set>
#include <string>

#include "tests/integration/differential/divergence.h"
#include "tests/integration/differential/sql_session.h"

namespace syncscope::differential {

// Empty when the downstream equals the replica. Tables named in `apart` (a shard group's, on either side)
// are judged elsewhere (shard_compare.h) and left out here.
Divergences compareWithReplica(SqlSession& replica, SqlSession& downstream, const std::string& database,
                               const std::set<std::string>& apart = {});

// True when every table's checksum is equal (a cheap poll while the engine catches up).
bool checksumsEqual(SqlSession& replica, SqlSession& downstream, const std::string& database,
                    const std::set<std::string>& apart = {});

// The rows a SELECT returns, as text, with how often each comes.
std::map<std::string, int> rowMultiset(SqlSession& server, const std::string& selectSql);
// How many rows `mine` has more of than `other` (in *count), a few of them named, one a line.
std::string rowsOnlyIn(const std::map<std::string, int>& mine, const std::map<std::string, int>& other, int* count);

}  // namespace syncscope::differential
