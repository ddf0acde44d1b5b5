// Compares the rows two servers returned for one key range, or the row counts of a table without a
// key: pure functions, no server.
#pragma once

#include <vector>

#include "engine/verify/compared_table.h"
#include "engine/verify/verify_result.h"

namespace syncscope::verify {

// Rows matched by their key values, byte for byte: every row only the upstream has is Missing, every
// row only the downstream has is Extra, every pair with a differing column is Different (naming the
// columns). Upstream rows come first in their order, then the extra ones in the downstream's.
std::vector<RowDifference> diffRows(const ComparedTable& table, const std::vector<RowValues>& upstreamRows,
                                    const std::vector<RowValues>& downstreamRows);

// Where a chunk differs: each side's rows as key values followed by the row's hash (ChunkSql::rowHashes).
// Returns the keys to read again (Missing, Extra or Different, without row images), matched byte for
// byte as diffRows does, upstream order first, then the extra ones in the downstream's order.
std::vector<RowDifference> diffRowHashes(const std::vector<RowValues>& upstreamHashes,
                                         const std::vector<RowValues>& downstreamHashes);

// The same for one key: either row may be absent.
std::optional<RowDifference> diffRow(const ComparedTable& table, const RowValues& key,
                                     const std::optional<RowValues>& upstreamRow,
                                     const std::optional<RowValues>& downstreamRow);

// Tables without a key: rows are equal when every column is; each row read with its count as the last
// value. A row the upstream has n times more is Missing with count n; fewer is Extra.
std::vector<RowDifference> diffRowCounts(const ComparedTable& table, const std::vector<RowValues>& upstreamCounts,
                                         const std::vector<RowValues>& downstreamCounts);

}  // namespace syncscope::verify
