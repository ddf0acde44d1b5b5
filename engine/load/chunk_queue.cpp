#include "engine/load/chunk_queue.h"

#include <algorithm>
#include <chrono>

namespace syncscope::load {

namespace {

// How often a waiting worker looks at the halt flag (set by another thread without a notify).
constexpr std::chrono::milliseconds kHaltPoll{50};

// The heap's order: the largest estimate on top; among equal estimates the first by name, so the
// order does not depend on the walks' timing more than it must.
bool smallerFirst(const LoadChunk* a, const LoadChunk* b) {
    if (a->estimatedRows != b->estimatedRows) {
        return a->estimatedRows < b->estimatedRows;
    }
    return a->name > b->name;
}

}  // namespace

ChunkQueue::ChunkQueue(std::vector<LoadChunk> chunks, const std::function<bool(const LoadChunk&)>& heldForWalk)
    : chunks_(std::make_move_iterator(chunks.begin()), std::make_move_iterator(chunks.end())) {
    for (LoadChunk& chunk : chunks_) {
        if (chunk.done) {
            continue;
        }
        (heldForWalk(chunk) ? held_ : ready_).push_back(&chunk);
    }
    walksRunning_ = held_.size();
    std::make_heap(ready_.begin(), ready_.end(), smallerFirst);
}

LoadChunk* ChunkQueue::next(const std::atomic<bool>& halt) {
    std::unique_lock lock(mutex_);
    while (!halt && ready_.empty() && walksRunning_ > 0) {
        changed_.wait_for(lock, kHaltPoll);
    }
    if (halt || ready_.empty()) {
        return nullptr;
    }
    std::pop_heap(ready_.begin(), ready_.end(), smallerFirst);
    LoadChunk* chunk = ready_.back();
    ready_.pop_back();
    return chunk;
}

void ChunkQueue::walkEnded(LoadChunk& held, std::vector<LoadChunk> walked) {
    {
        std::lock_guard lock(mutex_);
        if (!walked.empty()) {
            held = std::move(walked.front());
            ready_.push_back(&held);
            std::push_heap(ready_.begin(), ready_.end(), smallerFirst);
            for (size_t i = 1; i < walked.size(); ++i) {
                chunks_.push_back(std::move(walked[i]));
                ready_.push_back(&chunks_.back());
                std::push_heap(ready_.begin(), ready_.end(), smallerFirst);
            }
        }
        --walksRunning_;
    }
    changed_.notify_all();
}

std::vector<LoadChunk> ChunkQueue::plan() const {
    std::lock_guard lock(mutex_);
    std::vector<LoadChunk> chunks(chunks_.begin(), chunks_.end());
    std::sort(chunks.begin(), chunks.end(), [](const LoadChunk& a, const LoadChunk& b) { return a.name < b.name; });
    return chunks;
}

}  // namespace syncscope::load
