// Sizes the next chunk from how long the last one took (aiming at VerifySettings::chunkTime) and
// holds the verify back while the upstream is busy (Threads_running above the limit).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>

#include "engine/verify/server_session.h"
#include "engine/verify/verify_settings.h"

namespace syncscope::verify {

class ChunkPacer {
public:
    explicit ChunkPacer(const VerifySettings& settings) : settings_(settings), rows_(settings.firstChunkRows) {}

    size_t chunkRows() const { return rows_; }
    // A chunk of `rows` rows took `elapsed` on the upstream: move the size towards the target time.
    void chunkTook(size_t rows, std::chrono::steady_clock::duration elapsed);
    // Waits while the upstream runs more than maxThreadsRunning threads; returns early on cancel.
    // The total time waited so far is in pausedFor().
    void waitForQuietUpstream(ServerSession& upstream, const std::atomic<bool>* cancel);
    std::chrono::milliseconds pausedFor() const { return paused_; }

private:
    const VerifySettings& settings_;
    size_t rows_;
    std::chrono::milliseconds paused_{0};
};

}  // namespace syncscope::verify
