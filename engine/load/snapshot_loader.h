// The load half of `task-mode: all` and `full`: the filtered, routed tables are created downstream,
// cut into key-range chunks (the plan, saved once in the loader checkpoint), and the chunks still
// pending are copied by several workers that share one consistent upstream snapshot. A restart (after
// a pause, an error or SIGKILL) copies only the chunks not yet committed, under a new snapshot; the
// result says from which binlog point incremental replication must continue and until where safe
// mode must stay on.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/binlog/location.h"
#include "engine/common/server_settings.h"
#include "engine/filter/block_allow_list.h"
#include "engine/filter/table_router.h"
#include "engine/load/chunk_copier.h"
#include "engine/load/chunk_planner.h"
#include "engine/load/load_progress.h"
#include "engine/source/upstream_connection.h"

namespace syncscope::load {

class ChunkQueue;
class LoaderCheckpoint;
struct ConsistentSnapshot;

struct LoadSettings {
    static constexpr size_t kDefaultThreads = 4;  // DM's mydumper-thread default

    ServerSettings upstream;
    ServerSettings downstream;
    std::string taskName;
    std::string metaSchema = "dm_meta";
    std::string sourceId;
    bool enableGtid = false;
    size_t threads = kDefaultThreads;
    uint64_t chunkRows = kDefaultChunkRows;
    // When set (mydumper's chunk-filesize), each table's chunks hold about this many bytes instead:
    // chunkRows then follows from the table's average row length.
    uint64_t chunkBytes = 0;
    CopyOptions copy;
    std::shared_ptr<const filter::BlockAllowList> blockAllow;
    std::shared_ptr<const filter::TableRouter> router;
};

struct LoadResult {
    bool finished = false;  // false: interrupted (pause, stop); the plan keeps what committed
    size_t tables = 0;
    uint64_t rows = 0;
    uint64_t bytes = 0;
    // Every chunk was read at one of the snapshots between these two points: incremental replication
    // starts at the earliest and stays in safe mode until it has passed the latest.
    binlog::Location earliestPoint;
    binlog::Location latestPoint;
    // Tables without a key, each read whole at one snapshot later than the earliest: their events up
    // to this point are in the rows already and must be skipped (re-applying an INSERT would add a row).
    std::vector<std::pair<TableName, binlog::Location>> keylessTablePoints;
};

class SnapshotLoader {
public:
    SnapshotLoader(LoadSettings settings, LoadProgress& progress);

    // Runs until every chunk is committed or `interrupt` is set. Throws LoadError.
    LoadResult run(const std::atomic<bool>& interrupt);

    // Deletes the saved plan of this source (--remove-meta).
    void removePlan();

    // Throws LoadError when `point`'s binlog file is no longer on the upstream (purged).
    static void requirePointKept(const ServerSettings& upstream, const binlog::Location& point);

private:
    // Throws LoadError without RELOAD on *.*; returns whether SELECT is held on *.* as well.
    bool requireGlobalPrivileges(source::UpstreamConnection& upstream) const;
    // Without SELECT on *.*, every schema the load reads needs SELECT on the whole schema: a table the
    // user may not read is invisible to it, and would be missing from the load without an error.
    void requireSelect(source::UpstreamConnection& upstream, bool globalSelect,
                       const std::vector<LoadTable>& tables) const;
    // The plan made without walking a key (chunk_planner.h): quick, before any copying.
    std::vector<LoadChunk> planTables(const std::vector<LoadTable>& tables,
                                      const binlog::Location& snapshotPoint) const;
    uint64_t chunkRowsOf(const LoadTable& table) const;
    // The snapshot connections a restart can use: pending chunks, a whole-table chunk that may be
    // walked counted as the chunks it will likely be cut into.
    size_t chunksToCopy(const std::vector<LoadChunk>& chunks) const;
    // A pending whole-table chunk whose table's key is walked (needsKeyWalk) before it is copied.
    bool heldForWalk(const LoadChunk& chunk, const std::map<std::string, LoadTable>& tablesByName) const;
    // Copies the queue's chunks with one worker per snapshot connection while the held chunks' keys
    // are walked beside them, until every chunk is committed, `interrupt` is set or one fails (thrown).
    void copyChunks(ChunkQueue& queue, ConsistentSnapshot& snapshot,
                    const std::map<std::string, LoadTable>& tablesByName, LoaderCheckpoint& checkpoint,
                    const std::atomic<bool>& interrupt);
    LoadResult summarize(const std::vector<LoadChunk>& chunks) const;
    void warnAboutTargetsHoldingRows(const std::vector<TableName>& targets) const;

    LoadSettings settings_;
    LoadProgress& progress_;
};

}  // namespace syncscope::load
