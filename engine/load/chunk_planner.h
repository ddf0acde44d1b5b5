// Cuts a table into key ranges of about `chunkRows` rows, the unit that one worker loads in one
// downstream transaction. The first range is open below and the last open above, so a row written
// after the plan was made still falls in exactly one chunk (the plan survives restarts unchanged).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/load/load_plan.h"
#include "engine/source/upstream_connection.h"

namespace syncscope::load {

// DM's mydumper splits by `rows`; this many rows a chunk keeps a chunk's transaction short.
inline constexpr uint64_t kDefaultChunkRows = 100000;

// Chunk names: "<schema>.<table>.<5-digit index>", DM's `filename` column.
std::string chunkName(const TableName& table, size_t index);

// One integer key column: MIN/MAX split evenly. Another key: boundaries found by walking the key
// index chunkRows rows at a time. No key: one chunk (an ordered stream in one transaction).
// The rows of one chunk of `table`: `chunkRows`, or with a size in bytes (`chunkBytes` > 0, mydumper's
// chunk-filesize) that size over the table's average row length as InnoDB estimates it (DATA_LENGTH /
// TABLE_ROWS); a table without an estimate keeps `chunkRows`. At least 1.
uint64_t rowsPerChunk(const LoadTable& table, uint64_t chunkRows, uint64_t chunkBytes);

std::vector<LoadChunk> planChunks(source::UpstreamConnection& upstream, const LoadTable& table, uint64_t chunkRows);

}  // namespace syncscope::load
