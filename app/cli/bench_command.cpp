// syncscope-cli bench decode FILE: decodes every event and every row of a binlog file to typed
// values without printing them, and reports the throughput. The file is read on a second thread
// (BenchEventPrefetcher) while this one decodes.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "app/cli/bench_event_prefetcher.h"
#include "app/cli/cli_commands.h"
#include "engine/binlog/decode_error.h"
#include "engine/binlog/event_decoder.h"
#include "engine/source/binlog_file_source.h"

namespace syncscope::cli {
namespace {

const char* const kBenchUsage =
    "Usage: syncscope-cli bench decode FILE\n"
    "Decodes every event and every row of FILE to typed values without printing them, then prints\n"
    "events, rows, bytes, seconds, MB/s and rows/s (MB = 10^6 bytes).\n"
    "Exit 0 when all went well, 1 with FILE:OFFSET: on stderr for bad input, 2 on bad usage.\n";

constexpr double kBytesPerMegabyte = 1e6;

int benchDecode(const std::string& file) {
    auto started = std::chrono::steady_clock::now();
    BenchEventPrefetcher reader(file);
    binlog::EventDecoder decoder;
    // Every row is decoded to typed values; text and bytes stay views into the read batch, and the
    // events' vectors are recycled, so that decoding allocates nothing per event or value.
    decoder.setRowTextStorage(binlog::TextStorage::Borrow);
    std::vector<binlog::Event> events;
    uint64_t eventCount = 0;
    uint64_t rowCount = 0;
    uint64_t bytes = 0;
    while (auto batch = reader.next()) {
        for (size_t i = 0; i < batch->eventCount(); ++i) {
            const binlog::RawEvent raw = batch->event(i);
            bytes += raw.bytes.size();
            decoder.recycle(events);
            decoder.decodeInto(raw, events);
            for (const auto& event : events) {
                ++eventCount;
                if (const auto* rows = event.as<binlog::RowsEvent>()) {
                    rowCount += rows->rowCount();
                }
            }
        }
        decoder.recycle(events);  // nothing may point into the batch once it is handed back
        reader.release(std::move(batch));
    }
    if (reader.stop().reason == source::BinlogFileSource::StopReason::Incomplete) {
        std::cerr << reader.stop().file << ":" << reader.stop().pos << ": " << reader.stop().detail << '\n';
        return kExitFailure;
    }
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    char line[256];
    std::snprintf(line, sizeof line, "events %llu\nrows %llu\nbytes %llu\nseconds %.3f\nMB/s %.1f\nrows/s %.0f\n",
                  static_cast<unsigned long long>(eventCount), static_cast<unsigned long long>(rowCount),
                  static_cast<unsigned long long>(bytes), seconds,
                  seconds > 0 ? static_cast<double>(bytes) / kBytesPerMegabyte / seconds : 0.0,
                  seconds > 0 ? static_cast<double>(rowCount) / seconds : 0.0);
    std::cout << line;
    return kExitOk;
}

int runBench(std::span<char*> args) {
    if (args.size() == 1 && (std::string_view(args[0]) == "--help" || std::string_view(args[0]) == "-h")) {
        std::cout << kBenchUsage;
        return kExitOk;
    }
    if (args.size() != 2 || std::string_view(args[0]) != "decode" || std::string_view(args[1]).starts_with("--")) {
        std::cerr << "syncscope-cli bench: expected 'decode FILE'\n\n" << kBenchUsage;
        return kExitUsage;
    }
    try {
        return benchDecode(args[1]);
    } catch (const std::exception& e) {
        std::cerr << e.what() << '\n';
        return kExitFailure;
    }
}

const CommandRegistration kBenchCommand({"bench", "measure decoding speed: bench decode FILE", runBench});

}  // namespace
}  // namespace syncscope::cli
