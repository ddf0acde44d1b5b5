// For `syncscope-cli bench decode`: reads a binlog file's events on a second thread (the file source's
// reads out of the page cache and its framing) and hands them to the decoding thread in batches of
// whole events, so that reading overlaps decoding, as the engine's reader and syncer do. A few
// batches of fixed size are reused, so memory does not grow with the file.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "engine/binlog/raw_event.h"
#include "engine/source/binlog_file_source.h"

namespace syncscope::cli {

class BenchEventPrefetcher {
public:
    // Events copied into one batch; an event larger than this gets a batch of its own.
    static constexpr size_t kBatchBytes = size_t{2} << 20;
    static constexpr size_t kBatchesInFlight = 3;

    // Whole events, back to back, and where each one is.
    struct Batch {
        struct Entry {
            size_t offset = 0;
            size_t size = 0;
            std::string_view file;  // owned by the source, which outlives every batch
            uint64_t pos = 0;
        };
        std::string bytes;
        std::vector<Entry> entries;

        size_t eventCount() const { return entries.size(); }
        binlog::RawEvent event(size_t i) const {
            const Entry& e = entries[i];
            return {std::string_view(bytes).substr(e.offset, e.size), e.file, e.pos};
        }
    };

    // Starts reading at once.
    explicit BenchEventPrefetcher(const std::filesystem::path& file);
    ~BenchEventPrefetcher();
    BenchEventPrefetcher(const BenchEventPrefetcher&) = delete;
    BenchEventPrefetcher& operator=(const BenchEventPrefetcher&) = delete;

    // The next batch in file order, or null at the end; rethrows what the reading thread threw
    // (a DecodeError naming the file and offset). Hand each batch back with release() when done
    // with its events (and anything that points into them).
    std::unique_ptr<Batch> next();
    void release(std::unique_ptr<Batch> batch);

    // Why the source stopped (valid once next() returned null).
    const source::BinlogFileSource::Stop& stop() const { return stop_; }

private:
    void read();
    std::unique_ptr<Batch> takeFreeBatch();  // null when cancelled
    void publish(std::unique_ptr<Batch> batch);

    source::BinlogFileSource source_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::unique_ptr<Batch>> full_;
    std::vector<std::unique_ptr<Batch>> free_;
    size_t batchesMade_ = 0;
    bool finished_ = false;   // the reading thread is done
    bool cancelled_ = false;  // the consumer went away
    std::exception_ptr failure_;
    source::BinlogFileSource::Stop stop_;
    std::thread reader_;
};

}  // namespace syncscope::cli
