#include "engine/verify/chunk_pacer.h"

#include <algorithm>
#include <thread>

namespace syncscope::verify {

namespace {
// Each new size moves only this part of the way to the ideal one, so that one slow chunk (a cold
// page, a lock) does not swing the size.
constexpr double kSmoothing = 0.5;
}  // namespace

void ChunkPacer::chunkTook(size_t rows, std::chrono::steady_clock::duration elapsed) {
    if (rows == 0) {
        return;
    }
    double seconds = std::max(std::chrono::duration<double>(elapsed).count(), 1e-4);
    double target = std::chrono::duration<double>(settings_.chunkTime).count();
    double ideal = static_cast<double>(rows) * target / seconds;
    double next = kSmoothing * ideal + (1 - kSmoothing) * static_cast<double>(rows_);
    rows_ = std::clamp(static_cast<size_t>(next), settings_.minChunkRows, settings_.maxChunkRows);
}

void ChunkPacer::waitForQuietUpstream(ServerSession& upstream, const std::atomic<bool>* cancel) {
    if (settings_.maxThreadsRunning <= 0) {
        return;
    }
    while (!(cancel && cancel->load())) {
        auto rows = upstream.query("SHOW GLOBAL STATUS LIKE 'Threads_running'");
        int running = rows.empty() || !rows.front().at(1) ? 0 : std::stoi(*rows.front().at(1));
        if (running <= settings_.maxThreadsRunning) {
            return;
        }
        std::this_thread::sleep_for(settings_.loadPause);
        paused_ += settings_.loadPause;
    }
}

}  // namespace syncscope::verify
