// Compares a table cut into chunks by key value (KeyValueChunks) with each server working through a
// queue of its own (SessionWorker): both checksum a chunk's parts; once the upstream's figures are in,
// they size the next chunk, which both servers start at once, while the client compares this one; where
// parts differ, both list those parts' row hashes in one statement each, queued behind the next chunk.
// Two chunks are in flight, so that a server waits neither for the other nor for the client (the next
// chunk is sized while the one before it is still read), and neither runs more than two chunks ahead of
// the comparison. The ranges stay fixed by KeyValueChunks, so what a difference means is
// unchanged: suspects are confirmed by the caller (RowConfirmer), rows read at another moment are told
// apart there.
#pragma once

#include <atomic>
#include <chrono>
#include <deque>
#include <future>
#include <optional>
#include <vector>

#include "engine/verify/chunk_comparison.h"
#include "engine/verify/chunk_pacer.h"
#include "engine/verify/chunk_sql.h"
#include "engine/verify/compared_table.h"
#include "engine/verify/key_value_chunks.h"
#include "engine/verify/session_worker.h"
#include "engine/verify/verify_settings.h"

namespace syncscope::verify {

class ValueChunkPipeline {
public:
    static constexpr size_t kChunksInFlight = 2;

    // `settings` sizes the chunks (chunkTime, maxValueChunkRows) and parts; `cancel` stops new chunks.
    ValueChunkPipeline(ServerSession& upstream, ServerSession& downstream, const ComparedTable& table,
                       KeyValueChunks& chunks, const VerifySettings& settings, const std::atomic<bool>* cancel);

    // The next chunk's comparison, in key order; nullopt after the last one, or once cancelled. A
    // server's error is thrown here (the other server's statement ends first, see ~SessionWorker).
    std::optional<ChunkComparison> next();
    // Waits until neither server has a statement queued or running, so that the caller may use the
    // sessions itself (to confirm suspects) until the next call of next().
    void waitIdle();
    // Chunks not yet returned by next(), at the current width (progress).
    uint64_t chunksLeft() const;

private:
    // One side's part checksums of a chunk, read on its worker.
    struct PartFigures {
        std::vector<std::pair<uint64_t, uint64_t>> parts;  // COUNT(*), checksum
        std::chrono::steady_clock::duration took{};
    };
    struct ChunkInFlight {
        uint64_t width = 0;  // key values
        std::vector<KeyRange> parts;
        std::future<PartFigures> upstream;
        std::future<PartFigures> downstream;
    };
    struct ListingInFlight {
        ChunkComparison comparison;
        std::future<std::vector<RowValues>> upstream;
        std::future<std::vector<RowValues>> downstream;
    };

    static PartFigures readParts(ServerSession& session, const BoundQuery& query, size_t count);
    std::optional<ChunkInFlight> startChunk();
    // Starts chunks until kChunksInFlight are, or none is left.
    void startChunks();
    void startListing(ChunkComparison comparison, const std::vector<KeyRange>& differingParts);
    ChunkComparison finishListing();
    void advance();
    bool cancelled() const { return cancel_ && cancel_->load(); }

    const ComparedTable& table_;
    KeyValueChunks& chunks_;
    VerifySettings settings_;
    const std::atomic<bool>* cancel_;
    // Sized on this thread; its load check (another member) runs on the upstream's worker.
    ChunkPacer pacer_;
    bool started_ = false;
    // The parts of the next chunk started: chunkParts, or spreadDifferenceParts after a chunk that
    // differed in more than one part.
    size_t parts_ = 0;
    std::deque<ChunkInFlight> inFlight_;
    std::optional<ListingInFlight> listing_;
    std::deque<ChunkComparison> compared_;
    // Last: destroyed first, so that no statement runs once the rest is gone.
    SessionWorker upstreamWorker_;
    SessionWorker downstreamWorker_;
};

}  // namespace syncscope::verify
