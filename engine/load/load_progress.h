// How far a snapshot load has come, per table and in total: rows and bytes done of the estimate,
// chunks done, the chunks being loaded now, rate and ETA, and DM's unit name (Dump while the snapshot,
// schema and plan are made, Load while chunks are copied, Sync after). Written by the load's workers,
// read by the status publisher as one value.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/load/load_plan.h"

namespace syncscope::load {

// DM's query-status unit names.
inline constexpr const char* kUnitDump = "Dump";
inline constexpr const char* kUnitLoad = "Load";
inline constexpr const char* kUnitSync = "Sync";

struct TableLoadView {
    std::string schema;  // upstream
    std::string table;
    std::string targetSchema;
    std::string targetTable;
    bool keyless = false;  // loaded as one stream in one transaction
    uint64_t rowsDone = 0;
    uint64_t rowsEstimated = 0;  // InnoDB's estimate until the table is done, then the rows loaded
    uint64_t bytesDone = 0;      // bytes of the values copied
    uint64_t bytesEstimated = 0;
    uint32_t chunksDone = 0;
    uint32_t chunksTotal = 0;
    std::vector<std::string> currentChunks;  // being loaded now
};

struct LoadProgressView {
    std::string unit;  // kUnitDump, kUnitLoad or kUnitSync
    std::string mode;  // "all" or "full"
    bool finished = false;
    std::vector<TableLoadView> tables;
    uint64_t rowsDone = 0;
    uint64_t rowsEstimated = 0;
    uint64_t bytesDone = 0;
    uint64_t bytesEstimated = 0;
    uint32_t chunksDone = 0;
    uint32_t chunksTotal = 0;
    double rowsPerSecond = 0;  // since this run of the load started copying
    double bytesPerSecond = 0;
    std::optional<double> etaSeconds;  // from the rows left and the rate; none before a rate is known
    std::string snapshotPoint;         // the point of the current snapshot, "file:pos [gtid ...]"
    double writersBlockedMilliseconds = 0;
    std::vector<std::string> notCopied;  // views, triggers, routines, events (schema_objects.h)
};

// One compact line for a terminal: "Load 2/3 tables  41,000/90,000 rows (45.6%)  3.1 MB/s  ETA 0:12  chunks 40/95".
std::string progressLine(const LoadProgressView& view);

class LoadProgress {
public:
    using SteadyClock = std::chrono::steady_clock;

    explicit LoadProgress(std::string mode) : mode_(std::move(mode)) {}

    void setUnit(const std::string& unit);
    // The whole plan: done chunks count as done. Starts the rate clock.
    void setPlan(const std::vector<LoadChunk>& chunks, const std::map<std::string, LoadTable>& tablesByQuotedName);
    void setSnapshot(const std::string& point, double writersBlockedMilliseconds);
    void setNotCopied(std::vector<std::string> objects);
    // A walked table's whole-table chunk was cut into `added` + 1 chunks.
    void chunksAdded(const TableName& table, uint32_t added);
    void chunkStarted(const LoadChunk& chunk);
    void rowsCopied(const LoadChunk& chunk, uint64_t rows, uint64_t bytes);
    // Committed: the table's rows count stays; an abandoned chunk's rows are taken back.
    void chunkEnded(const LoadChunk& chunk, bool committed, uint64_t rows, uint64_t bytes);
    void setFinished();

    LoadProgressView view(SteadyClock::time_point now = SteadyClock::now()) const;

private:
    mutable std::mutex mutex_;
    std::string mode_;
    std::vector<std::string> notCopied_;
    std::string unit_ = kUnitDump;
    bool finished_ = false;
    std::map<std::string, TableLoadView> tables_;  // by quoted upstream name
    std::string snapshotPoint_;
    double writersBlockedMilliseconds_ = 0;
    SteadyClock::time_point rateStart_{};
    uint64_t rowsAtRateStart_ = 0;
    uint64_t bytesAtRateStart_ = 0;
};

}  // namespace syncscope::load
