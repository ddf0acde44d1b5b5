// Verifies one table: walks the upstream's key in chunks, has both servers checksum each chunk at the
// same time, finds the rows of a chunk whose checksums differ, and has them confirmed (RowConfirmer) so
// that a row in flight is never reported (online_exactness in README.md). Tables without a key are
// compared by counts of equal rows.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "engine/verify/chunk_comparison.h"
#include "engine/verify/chunk_pacer.h"
#include "engine/verify/chunk_sql.h"
#include "engine/verify/key_value_chunks.h"
#include "engine/verify/row_confirmer.h"
#include "engine/verify/server_session.h"
#include "engine/verify/task_progress.h"
#include "engine/verify/value_chunk_pipeline.h"
#include "engine/verify/verify_result.h"
#include "engine/verify/verify_settings.h"

namespace syncscope::verify {

class TableVerifier {
public:
    TableVerifier(ServerSession& upstream, ServerSession& downstream, TaskProgress& progress,
                  const VerifySettings& settings)
        : upstream_(upstream), downstream_(downstream), progress_(progress), settings_(settings) {}

    void setCancelFlag(const std::atomic<bool>* cancel) { cancel_ = cancel; }
    // Called after every chunk with the result so far (progress bars, status). It must not use the
    // sessions: with chunks by key value, the next chunk is being read meanwhile.
    void setProgressHandler(std::function<void(const TableVerifyResult&)> handler) { onProgress_ = std::move(handler); }
    void setConfirmedHandler(ConfirmedDifferencesHandler handler) { onConfirmed_ = std::move(handler); }

    // Compares one planned table. Errors of either server end the table as Failed with the message;
    // they are not thrown.
    TableVerifyResult verify(const ComparedTable& table);

    // Re-reads the given differences' rows under upstream locks (keyed tables) and returns what still
    // differs: used after a repair to check it.
    std::vector<RowDifference> recheck(const ComparedTable& table, const std::vector<RowDifference>& differences);

private:
    void verifyKeyed(const ComparedTable& table, TableVerifyResult& result);
    void verifyKeyless(const ComparedTable& table, TableVerifyResult& result);
    // One chunk as the upstream read it: its range (fixed by that read) and, when listed, every row's
    // key and hash; else its checksum (rows, hash), taken beside the downstream's.
    struct UpstreamChunk {
        KeyRange range;
        bool listed = false;
        std::vector<RowValues> rowHashes;
    };
    // Reads the upstream's next chunk after `lower`, at most `rows` rows: listed (one pass, rows sent) or
    // only its end found (a walk of the key; the checksum follows beside the downstream's).
    UpstreamChunk readUpstreamChunk(const ComparedTable& table, const std::optional<RowValues>& lower, size_t rows,
                                    bool listed);
    // A part of a chunk: a key range and the upstream's rows in it (positions into rowHashes).
    struct ChunkPart {
        KeyRange range;
        size_t firstRow = 0;
        size_t endRow = 0;
    };
    // The chunk in settings_.chunkParts parts of (nearly) equal upstream row counts, covering its range.
    std::vector<ChunkPart> splitChunk(const UpstreamChunk& chunk) const;
    static std::vector<KeyRange> rangesOf(const std::vector<ChunkPart>& parts);
    // The suspects of the parts whose checksums (the downstream's part checksum rows) differ from the
    // upstream's; lists those parts' row hashes downstream. Empty: every part is equal.
    std::vector<RowDifference> differingRowsOfParts(const ComparedTable& table, const UpstreamChunk& chunk,
                                                    const std::vector<ChunkPart>& parts,
                                                    const std::vector<RowValues>& downstreamParts, bool& differs);
    // A chunk only walked upstream: both servers checksum it at once (then `checksummed` is called: the
    // pacer's measure); where the checksums differ the upstream lists it and the downstream checksums its
    // parts.
    ChunkComparison compareWalkedChunk(const ComparedTable& table, UpstreamChunk& chunk,
                                       const std::function<void()>& checksummed);
    // A listed chunk, compared downstream (its parts at once when `partsFirst`) while the upstream reads
    // the next chunk into `ahead` (listed when `listNext`).
    ChunkComparison compareListedChunk(const ComparedTable& table, const UpstreamChunk& chunk, bool partsFirst,
                                       bool listNext, ChunkPacer& pacer, std::optional<UpstreamChunk>& ahead);
    // Suspects waiting to be confirmed together, with the chunk each came from.
    struct PendingSuspects {
        std::vector<RowDifference> rows;
        std::vector<uint64_t> chunks;
    };
    void confirmPending(const ComparedTable& table, PendingSuspects& pending, TableVerifyResult& result);
    // Counts a compared chunk in the result and queues its suspects (the caller confirms a full batch).
    void recordChunk(ChunkComparison& comparison, PendingSuspects& pending, TableVerifyResult& result);
    // A one-column integer key whose values are dense enough: chunks cut by key value, no walk. Each server
    // checksums each chunk's parts (one statement, no rows sent) and lists the row hashes of differing parts,
    // through a queue of its own (ValueChunkPipeline).
    void verifyByKeyValue(const ComparedTable& table, KeyValueChunks& chunks, uint64_t averageRowBytes,
                          TableVerifyResult& result);
    // The upstream's estimates of the table's rows and their average length in bytes (0: unknown).
    struct TableEstimate {
        uint64_t rows = 0;
        uint64_t averageRowBytes = 0;
    };
    TableEstimate upstreamEstimate(const ComparedTable& table);
    bool cancelled() const { return cancel_ && cancel_->load(); }
    static void noteUnsettled(const RowConfirmer& confirming, TableVerifyResult& result);
    RowConfirmer confirmer() { return RowConfirmer(upstream_, downstream_, progress_, settings_, cancel_); }

    ServerSession& upstream_;
    ServerSession& downstream_;
    TaskProgress& progress_;
    const VerifySettings& settings_;
    const std::atomic<bool>* cancel_ = nullptr;
    std::function<void(const TableVerifyResult&)> onProgress_;
    ConfirmedDifferencesHandler onConfirmed_;
    // Where the last table cut by key value ended (chunk rows, parts) and its average row length: the next
    // such table starts there, its chunk rows scaled by the two tables' row lengths.
    ValueChunkPipeline::Pace valuePace_;
    uint64_t valuePaceRowBytes_ = 0;
};

}  // namespace syncscope::verify
