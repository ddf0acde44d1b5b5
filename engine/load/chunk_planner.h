// Cuts a table into key ranges of about `chunkRows` rows, the unit that one worker loads in one
// downstream transaction. The first range is open below and the last open above, so a row written
// after the plan was made still falls in exactly one chunk (the plan survives restarts unchanged).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/load/load_plan.h"
#include "engine/source/upstream_connection.h"

namespace syncscope::load {

// DM's mydumper splits by `rows`; this many rows a chunk keeps a chunk's transaction short.
inline constexpr uint64_t kDefaultChunkRows = 100000;

// Chunk names: "<schema>.<table>.<5-digit index>", DM's `filename` column.
std::string chunkName(const TableName& table, size_t index);

// The rows of one chunk of `table`: `chunkRows`, or with a size in bytes (`chunkBytes` > 0, mydumper's
// chunk-filesize) that size over the table's average row length as InnoDB estimates it (DATA_LENGTH /
// TABLE_ROWS); a table without an estimate keeps `chunkRows`. At least 1.
uint64_t rowsPerChunk(const LoadTable& table, uint64_t chunkRows, uint64_t chunkBytes);

// Whether `table`'s chunks are found by walking its key (a key that is not one integer column, on a
// table of more than `chunkRows` rows): a read of the whole key in order, as long as a table scan.
bool needsKeyWalk(const LoadTable& table, uint64_t chunkRows);

// The plan made without walking a key: one integer key column is split evenly by MIN/MAX; a table
// without a key, one of at most `chunkRows` rows, or one whose key needsKeyWalk is one chunk of the
// whole table (for the last, until walkChunks refines it).
std::vector<LoadChunk> planChunks(source::UpstreamConnection& upstream, const LoadTable& table, uint64_t chunkRows);

// The chunks of `table` from walking its key `chunkRows` rows at a time; the first keeps the name of
// the whole-table chunk planChunks gave it. None when `stop` was set before the walk's end.
std::optional<std::vector<LoadChunk>> walkChunks(source::UpstreamConnection& upstream, const LoadTable& table,
                                                 uint64_t chunkRows, const std::atomic<bool>& stop);

}  // namespace syncscope::load
