// Compares a table cut into chunks by key value (KeyValueChunks) with each server working through a
// queue of its own (SessionWorker): both checksum a chunk's parts; once the upstream's figures are in,
// they size the next chunk, which both servers start at once, while the client compares this one. Where
// parts differ, the large ones are checksummed again in sub-parts, and then the differing parts and
// sub-parts are listed (row hashes), one statement a side for each step, queued behind the chunks
// started. Two chunks are in flight, so that a server waits neither for the other nor for the client,
// and neither runs more than two chunks ahead of the comparison. The ranges stay fixed by
// KeyValueChunks (sub-parts are its finer parts, grouped into parts), so what a difference means is
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

    // Where a table's chunks start: the rows a chunk aims at and its parts. Carried from one table to the
    // next, so that a table does not start from firstChunkRows again (small chunks keep too little in
    // flight, and the pacer takes several chunks to grow them). 0: from the settings.
    struct Pace {
        size_t chunkRows = 0;
        size_t parts = 0;
    };

    // `settings` sizes the chunks (chunkTime, maxValueChunkRows), parts and sub-parts; `cancel` stops new
    // chunks.
    ValueChunkPipeline(ServerSession& upstream, ServerSession& downstream, const ComparedTable& table,
                       KeyValueChunks& chunks, const VerifySettings& settings, const std::atomic<bool>* cancel,
                       Pace pace);

    // The next chunk's comparison, in key order; nullopt after the last one, or once cancelled. A
    // server's error is thrown here (the other server's statement ends first, see ~SessionWorker).
    std::optional<ChunkComparison> next();
    // Waits until neither server has a statement queued or running, so that the caller may use the
    // sessions itself (to confirm suspects) until the next call of next().
    void waitIdle();
    // Chunks not yet returned by next(), at the current width (progress).
    uint64_t chunksLeft() const;
    // Where the next chunk would start (for the next table).
    Pace pace() const { return {pacer_.chunkRows(), parts_}; }

private:
    // One side's part checksums of a chunk, read on its worker.
    struct PartFigures {
        std::vector<std::pair<uint64_t, uint64_t>> parts;  // COUNT(*), checksum
        std::chrono::steady_clock::duration took{};
    };
    struct ChunkInFlight {
        uint64_t width = 0;  // key values
        bool last = false;   // open above: the rest of the table
        // The chunk's finer parts (KeyValueChunks::parts), subPartsEach of them to a part (the last part
        // may have fewer): so parts and sub-parts cover the chunk without gap or overlap.
        std::vector<KeyRange> subParts;
        size_t subPartsEach = 1;
        std::vector<KeyRange> parts;
        std::future<PartFigures> upstream;
        std::future<PartFigures> downstream;
    };
    // A chunk whose parts differed, until its suspects are known: the large differing parts' sub-parts
    // checksummed on both servers (when there are any), then the differing parts and sub-parts listed.
    struct FollowUp {
        ChunkComparison comparison;
        std::vector<KeyRange> toList;
        std::vector<KeyRange> subParts;  // being checksummed
        std::future<PartFigures> upstreamSubParts;
        std::future<PartFigures> downstreamSubParts;
        std::future<std::vector<RowValues>> upstreamRows;
        std::future<std::vector<RowValues>> downstreamRows;
        bool done() const { return !upstreamSubParts.valid() && !upstreamRows.valid(); }
        bool ready() const;
    };

    static PartFigures readParts(ServerSession& session, const BoundQuery& query, size_t count);
    std::optional<ChunkInFlight> startChunk();
    // Starts chunks until kChunksInFlight are, or none is left.
    void startChunks();
    // What a chunk's part figures say: equal (done), or which parts to list and which to checksum again.
    FollowUp compareParts(ChunkComparison comparison, const ChunkInFlight& chunk, const PartFigures& upstream,
                          const PartFigures& downstream);
    void startSubParts(FollowUp& followUp);
    void startListing(FollowUp& followUp);
    // Takes a follow-up's results (waiting for them) and starts its next step, if any.
    void moveOn(FollowUp& followUp);
    // Moves on every follow-up whose statements have ended, then hands the finished ones at the front
    // (the comparisons stay in key order) to compared_.
    void moveOnReady();
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
    std::deque<FollowUp> followUps_;
    std::deque<ChunkComparison> compared_;
    // Last: destroyed first, so that no statement runs once the rest is gone.
    SessionWorker upstreamWorker_;
    SessionWorker downstreamWorker_;
};

}  // namespace syncscope::verify
