// Copies one chunk: its rows are read inside the upstream snapshot and written downstream as
// multi-row INSERTs no larger than the downstream's max_allowed_packet allows, then the chunk's
// loader checkpoint row is marked done, all in ONE downstream transaction.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "engine/load/load_plan.h"
#include "engine/load/load_progress.h"
#include "engine/load/loader_checkpoint.h"
#include "engine/source/upstream_connection.h"

namespace sql {
class Connection;
}

namespace syncscope::load {

// A statement this size keeps the round trips few and each worker's memory small.
inline constexpr size_t kMaxInsertBytes = 4 * 1024 * 1024;
// Room left in max_allowed_packet for the statement's head and the protocol.
inline constexpr size_t kPacketHeadroom = 64 * 1024;

class ChunkCopier {
public:
    // `downstream` is this worker's own connection (its session is set up here).
    ChunkCopier(sql::Connection& downstream, const LoaderCheckpoint& checkpoint, std::string sourceId);

    // Copies `chunk` of `table` and commits; fills chunk's rowsDone, bytesDone and loadedAt. On
    // interrupt, rolls back and returns false. Throws LoadError naming the chunk and what failed.
    bool copy(source::UpstreamConnection& upstream, const LoadTable& table, LoadChunk& chunk,
              const binlog::Location& snapshotPoint, const std::atomic<bool>& interrupt, LoadProgress& progress);

    size_t statementLimit() const { return statementLimit_; }

private:
    void execute(const std::string& sql, const LoadChunk& chunk);
    void rollback();

    sql::Connection& downstream_;
    const LoaderCheckpoint& checkpoint_;
    std::string sourceId_;
    size_t statementLimit_ = kMaxInsertBytes;
};

}  // namespace syncscope::load
