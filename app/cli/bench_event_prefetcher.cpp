#include "app/cli/bench_event_prefetcher.h"

#include <utility>

namespace syncscope::cli {

BenchEventPrefetcher::BenchEventPrefetcher(const std::filesystem::path& file)
    : source_(source::BinlogFileSource::ofFiles({file})), reader_([this] { read(); }) {}

BenchEventPrefetcher::~BenchEventPrefetcher() {
    {
        std::lock_guard lock(mutex_);
        cancelled_ = true;
    }
    changed_.notify_all();
    reader_.join();
}

std::unique_ptr<BenchEventPrefetcher::Batch> BenchEventPrefetcher::takeFreeBatch() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return cancelled_ || !free_.empty() || batchesMade_ < kBatchesInFlight; });
    if (cancelled_) {
        return nullptr;
    }
    std::unique_ptr<Batch> batch;
    if (!free_.empty()) {
        batch = std::move(free_.back());
        free_.pop_back();
    } else {
        batch = std::make_unique<Batch>();
        batch->bytes.reserve(kBatchBytes);
        ++batchesMade_;
    }
    if (batch->bytes.capacity() > kBatchBytes) {
        batch->bytes = std::string();  // it held a huge event: give that memory back
        batch->bytes.reserve(kBatchBytes);
    }
    batch->bytes.clear();
    batch->entries.clear();
    return batch;
}

void BenchEventPrefetcher::publish(std::unique_ptr<Batch> batch) {
    {
        std::lock_guard lock(mutex_);
        full_.push_back(std::move(batch));
    }
    changed_.notify_all();
}

void BenchEventPrefetcher::read() {
    try {
        std::unique_ptr<Batch> batch = takeFreeBatch();
        while (batch) {
            auto raw = source_.next();
            if (!raw) {
                break;
            }
            if (!batch->entries.empty() && batch->bytes.size() + raw->bytes.size() > kBatchBytes) {
                publish(std::move(batch));
                batch = takeFreeBatch();
                if (!batch) {
                    return;
                }
            }
            batch->entries.push_back({batch->bytes.size(), raw->bytes.size(), raw->file, raw->pos});
            batch->bytes.append(raw->bytes);
        }
        if (batch && !batch->entries.empty()) {
            publish(std::move(batch));
        }
    } catch (...) {
        std::lock_guard lock(mutex_);
        failure_ = std::current_exception();
    }
    {
        std::lock_guard lock(mutex_);
        stop_ = source_.stop();
        finished_ = true;
    }
    changed_.notify_all();
}

std::unique_ptr<BenchEventPrefetcher::Batch> BenchEventPrefetcher::next() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return !full_.empty() || finished_; });
    if (!full_.empty()) {
        std::unique_ptr<Batch> batch = std::move(full_.front());
        full_.pop_front();
        return batch;
    }
    if (failure_) {
        std::rethrow_exception(failure_);
    }
    return nullptr;
}

void BenchEventPrefetcher::release(std::unique_ptr<Batch> batch) {
    {
        std::lock_guard lock(mutex_);
        free_.push_back(std::move(batch));
    }
    changed_.notify_all();
}

}  // namespace syncscope::cli
