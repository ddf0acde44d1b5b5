// How hard and how long a verify may work: chunk sizing, the upstream load it backs off from, and how
// long it waits for a running task to apply what it compares.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

namespace syncscope::verify {

struct VerifySettings {
    static constexpr size_t kDefaultFirstChunkRows = 1000;
    static constexpr size_t kDefaultMinChunkRows = 100;
    static constexpr size_t kDefaultMaxChunkRows = 50000;
    static constexpr size_t kDefaultMaxValueChunkRows = 1000000;
    static constexpr std::chrono::milliseconds kDefaultChunkTime{250};
    static constexpr int kDefaultMaxThreadsRunning = 25;
    static constexpr std::chrono::milliseconds kDefaultLoadPause{250};
    static constexpr std::chrono::seconds kDefaultSettleTimeout{30};
    static constexpr std::chrono::milliseconds kDefaultAppliedPoll{20};
    static constexpr int kDefaultLockAttempts = 5;
    static constexpr size_t kDefaultChunkParts = 64;
    static constexpr size_t kDefaultSpreadDifferenceParts = 128;
    static constexpr size_t kDefaultDifferingPartSubParts = 8;
    static constexpr size_t kDefaultSubPartMinRows = 1024;
    static constexpr size_t kDefaultConfirmRows = 1024;
    static constexpr size_t kDefaultConfirmLookups = 256;
    static constexpr size_t kDefaultParallelTables = 2;

    // Chunks grow or shrink so that one takes about chunkTime on the upstream, as pt-table-checksum's
    // --chunk-time does, within these bounds.
    size_t firstChunkRows = kDefaultFirstChunkRows;
    size_t minChunkRows = kDefaultMinChunkRows;
    size_t maxChunkRows = kDefaultMaxChunkRows;
    std::chrono::milliseconds chunkTime = kDefaultChunkTime;
    // Before each chunk: while the upstream's Threads_running exceeds this, wait loadPause (0: never).
    int maxThreadsRunning = kDefaultMaxThreadsRunning;
    std::chrono::milliseconds loadPause = kDefaultLoadPause;
    // How long rows stay locked upstream while the task applies up to the locked point.
    std::chrono::milliseconds settleTimeout = kDefaultSettleTimeout;
    std::chrono::milliseconds appliedPoll = kDefaultAppliedPoll;
    int lockAttempts = kDefaultLockAttempts;
    // Where a chunk's checksums differ, the downstream checksums it again in this many parts of equal
    // upstream row counts (one statement, one pass) and lists the row hashes of differing parts only.
    size_t chunkParts = kDefaultChunkParts;
    // Chunks cut by key value are checksummed in chunkParts parts, and in this many once the last chunk
    // compared differed in more than one part: where differences are spread over the table (every chunk
    // differs), smaller parts list fewer rows again (a listed row costs both servers about twice a
    // checksummed one, and the client its parsing) for the little each part adds to the statement.
    size_t spreadDifferenceParts = kDefaultSpreadDifferenceParts;
    // Chunks cut by key value: a differing part that holds more than subPartMinRows rows (either side) is
    // checksummed again in this many sub-parts, and only the differing sub-parts are listed. A listed row
    // costs a server 1.5-1.8x a checksummed one and the client its parsing, so where every chunk differs
    // reading a differing part twice by checksum costs less than listing it. 1: list differing parts whole.
    size_t differingPartSubParts = kDefaultDifferingPartSubParts;
    size_t subPartMinRows = kDefaultSubPartMinRows;
    // Suspect rows are confirmed together once this many are pending (and at a table's end): one upstream
    // transaction and one wait for the task per batch instead of per chunk. They stay locked upstream
    // until the task has applied up to them.
    size_t confirmRows = kDefaultConfirmRows;
    // Keys read in one statement when confirming (a UNION ALL of lookups).
    size_t confirmLookups = kDefaultConfirmLookups;
    // A table whose key is one integer column with dense enough values is cut into chunks by key value
    // (KeyValueChunks), no walk; false: every keyed table's chunks end where a walk of the key says.
    bool chunkByKeyValue = true;
    // Such chunks hold no rows in the client (both servers checksum them), so only chunkTime bounds them,
    // up to this many rows; a walked chunk's rows may be listed, hence maxChunkRows.
    size_t maxValueChunkRows = kDefaultMaxValueChunkRows;
    // Tables compared at the same time, each on connections of its own (so at most this many of verify's
    // statements run on a server at once). Where one table ends (its last chunk's follow-ups and
    // confirmation, a few round trips on one server while the other waits) or one server runs behind
    // inside a table, the other table keeps both servers busy. 1: one table after another. A repair that
    // is applied always goes one table at a time.
    size_t parallelTables = kDefaultParallelTables;
};

}  // namespace syncscope::verify
