// Copies one chunk: its rows are read inside the upstream snapshot and written downstream, by batches
// of a prepared INSERT, by multi-row INSERTs no larger than the downstream's max_allowed_packet allows
// (each sent while the next is read), or by LOAD DATA LOCAL INFILE streamed from memory, then the
// chunk's loader checkpoint row is marked done, all in ONE downstream transaction.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

#include "engine/load/batch_sender.h"
#include "engine/load/load_plan.h"
#include "engine/load/load_progress.h"
#include "engine/load/loader_checkpoint.h"
#include "engine/load/target_session.h"
#include "engine/source/upstream_connection.h"

namespace syncscope::load {

// A statement this size keeps the round trips few and each worker's memory small.
inline constexpr size_t kMaxInsertBytes = 4 * 1024 * 1024;
// Room left in max_allowed_packet for the statement's head and the protocol.
inline constexpr size_t kPacketHeadroom = 64 * 1024;

// How rows reach the target. Prepared is the default: a prepared INSERT executed for a batch of rows at
// once (bulk_insert.h), which spares the target the parsing of literals (scripts/bench-load: about 0.6x
// the target's CPU of multi-row INSERTs); a target without bulk execution (MySQL) gets multi-row INSERTs.
// LOAD DATA holds less memory (one row and a 64 KiB buffer per worker).
enum class LoadMethod { LoadData, Insert, Prepared };
// "load-data", "insert" or "prepared"; nullopt for anything else.
std::optional<LoadMethod> loadMethodNamed(const std::string& name);
const char* loadMethodName(LoadMethod method);

// What a copied row does when the target already holds a row with the same primary or unique key
// (DM's loaders.on-duplicate-logical): Replace (REPLACE: the upstream's row wins; DM's default, so an
// unchanged DM task file loads as under DM), Ignore (INSERT IGNORE: the target's row stays), Error
// (the task stops at the first duplicate: for a DBA who wants a non-empty target to be noticed).
enum class DuplicateRule { Error, Replace, Ignore };
// "error", "replace" or "ignore"; nullopt for anything else.
std::optional<DuplicateRule> duplicateRuleNamed(const std::string& name);
const char* duplicateRuleName(DuplicateRule rule);

// How one worker writes its chunks.
struct CopyOptions {
    LoadMethod method = LoadMethod::Prepared;
    DuplicateRule onDuplicate = DuplicateRule::Replace;  // DM's default
    size_t statementBytes = kMaxInsertBytes;  // a multi-row INSERT stops growing here (mydumper's statement-size)
};

class ChunkCopier {
public:
    // `downstream` is this worker's own session.
    ChunkCopier(TargetSession& downstream, const LoaderCheckpoint& checkpoint, std::string sourceId,
                const CopyOptions& options);

    // Copies `chunk` of `table` and commits; fills chunk's rowsDone, bytesDone and loadedAt. On
    // interrupt, rolls back and returns false. Throws LoadError naming the chunk and what failed.
    bool copy(source::UpstreamConnection& upstream, const LoadTable& table, LoadChunk& chunk,
              const binlog::Location& snapshotPoint, const std::atomic<bool>& interrupt, LoadProgress& progress);

    size_t statementLimit() const { return statementLimit_; }

private:
    struct Copied {
        uint64_t rows = 0;
        uint64_t bytes = 0;
    };
    void insertRows(source::UpstreamConnection& upstream, const std::string& select, const LoadTable& table,
                    LoadChunk& chunk, const std::atomic<bool>& interrupt, LoadProgress& progress, Copied& copied);
    void preparedRows(source::UpstreamConnection& upstream, const std::string& select, const LoadTable& table,
                      LoadChunk& chunk, const std::atomic<bool>& interrupt, LoadProgress& progress, Copied& copied);
    void loadDataRows(source::UpstreamConnection& upstream, const std::string& select, const LoadTable& table,
                      LoadChunk& chunk, const std::atomic<bool>& interrupt, LoadProgress& progress, Copied& copied);
    void execute(const std::string& sql, const LoadChunk& chunk);
    // "INSERT INTO ", "REPLACE INTO " or "INSERT IGNORE INTO " by the duplicate rule.
    std::string insertVerb() const;

    TargetSession& downstream_;
    const LoaderCheckpoint& checkpoint_;
    std::string sourceId_;
    CopyOptions options_;
    size_t statementLimit_ = kMaxInsertBytes;  // a multi-row INSERT stops growing here
    size_t packetLimit_ = kMaxInsertBytes;     // no statement may pass this (max_allowed_packet)
    // Sends a batch (multi-row INSERT or bulk execution) while the next one is read from the upstream.
    BatchSender sender_;
};

}  // namespace syncscope::load
