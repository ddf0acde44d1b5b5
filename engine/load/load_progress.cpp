#include "engine/load/load_progress.h"

#include <algorithm>

namespace syncscope::load {

namespace {

// A rate over less than this is noise; no ETA before it.
constexpr std::chrono::milliseconds kMinRateWindow{500};

}  // namespace

void LoadProgress::setUnit(const std::string& unit) {
    std::lock_guard lock(mutex_);
    unit_ = unit;
}

void LoadProgress::setPlan(const std::vector<LoadChunk>& chunks,
                           const std::map<std::string, LoadTable>& tablesByQuotedName) {
    std::lock_guard lock(mutex_);
    tables_.clear();
    for (const LoadChunk& chunk : chunks) {
        TableLoadView& view = tables_[chunk.upstream.quoted()];
        view.schema = chunk.upstream.schema;
        view.table = chunk.upstream.table;
        view.targetSchema = chunk.target.schema;
        view.targetTable = chunk.target.table;
        view.keyless = chunk.keyColumns.empty();
        ++view.chunksTotal;
        if (chunk.done) {
            ++view.chunksDone;
            view.rowsDone += chunk.rowsDone;
            view.bytesDone += chunk.bytesDone;
        }
    }
    uint64_t rows = 0;
    uint64_t bytes = 0;
    for (auto& [name, view] : tables_) {
        if (auto table = tablesByQuotedName.find(name); table != tablesByQuotedName.end()) {
            view.rowsEstimated = table->second.estimatedRows;
            view.bytesEstimated = table->second.estimatedBytes;
        }
        if (view.chunksDone == view.chunksTotal) {
            view.rowsEstimated = view.rowsDone;
            view.bytesEstimated = view.bytesDone;
        }
        view.rowsEstimated = std::max(view.rowsEstimated, view.rowsDone);
        view.bytesEstimated = std::max(view.bytesEstimated, view.bytesDone);
        rows += view.rowsDone;
        bytes += view.bytesDone;
    }
    rateStart_ = SteadyClock::now();
    rowsAtRateStart_ = rows;
    bytesAtRateStart_ = bytes;
}

void LoadProgress::setNotCopied(std::vector<std::string> objects) {
    std::lock_guard lock(mutex_);
    notCopied_ = std::move(objects);
}

void LoadProgress::setSnapshot(const std::string& point, double writersBlockedMilliseconds) {
    std::lock_guard lock(mutex_);
    snapshotPoint_ = point;
    writersBlockedMilliseconds_ = writersBlockedMilliseconds;
}

void LoadProgress::chunksAdded(const TableName& table, uint32_t added) {
    std::lock_guard lock(mutex_);
    tables_[table.quoted()].chunksTotal += added;
}

void LoadProgress::chunkStarted(const LoadChunk& chunk) {
    std::lock_guard lock(mutex_);
    tables_[chunk.upstream.quoted()].currentChunks.push_back(chunk.name);
}

void LoadProgress::rowsCopied(const LoadChunk& chunk, uint64_t rows, uint64_t bytes) {
    std::lock_guard lock(mutex_);
    TableLoadView& view = tables_[chunk.upstream.quoted()];
    view.rowsDone += rows;
    view.bytesDone += bytes;
    view.rowsEstimated = std::max(view.rowsEstimated, view.rowsDone);
    view.bytesEstimated = std::max(view.bytesEstimated, view.bytesDone);
}

void LoadProgress::chunkEnded(const LoadChunk& chunk, bool committed, uint64_t rows, uint64_t bytes) {
    std::lock_guard lock(mutex_);
    TableLoadView& view = tables_[chunk.upstream.quoted()];
    std::erase(view.currentChunks, chunk.name);
    if (committed) {
        ++view.chunksDone;
        if (view.chunksDone == view.chunksTotal) {
            view.rowsEstimated = view.rowsDone;
            view.bytesEstimated = view.bytesDone;
        }
    } else {
        view.rowsDone -= std::min(view.rowsDone, rows);
        view.bytesDone -= std::min(view.bytesDone, bytes);
    }
}

void LoadProgress::setFinished() {
    std::lock_guard lock(mutex_);
    finished_ = true;
}

std::string progressLine(const LoadProgressView& view) {
    constexpr double kPercent = 100.0;
    constexpr double kMegabyte = 1024.0 * 1024.0;
    constexpr int kSecondsPerMinute = 60;
    size_t tablesDone = 0;
    for (const auto& table : view.tables) {
        tablesDone += table.chunksDone == table.chunksTotal ? 1 : 0;
    }
    char line[256];
    double percent = view.rowsEstimated == 0
                         ? 0.0
                         : kPercent * static_cast<double>(view.rowsDone) / static_cast<double>(view.rowsEstimated);
    std::snprintf(line, sizeof line, "%s %zu/%zu tables  %llu/%llu rows (%.1f%%)  %.1f MB/s  chunks %u/%u",
                  view.unit.c_str(), tablesDone, view.tables.size(), static_cast<unsigned long long>(view.rowsDone),
                  static_cast<unsigned long long>(view.rowsEstimated), percent, view.bytesPerSecond / kMegabyte,
                  view.chunksDone, view.chunksTotal);
    std::string text = line;
    if (view.etaSeconds) {
        auto seconds = static_cast<long long>(*view.etaSeconds);
        std::snprintf(line, sizeof line, "  ETA %lld:%02lld", seconds / kSecondsPerMinute, seconds % kSecondsPerMinute);
        text += line;
    }
    return text;
}

LoadProgressView LoadProgress::view(SteadyClock::time_point now) const {
    std::lock_guard lock(mutex_);
    LoadProgressView view;
    view.unit = unit_;
    view.mode = mode_;
    view.finished = finished_;
    view.snapshotPoint = snapshotPoint_;
    view.notCopied = notCopied_;
    view.writersBlockedMilliseconds = writersBlockedMilliseconds_;
    for (const auto& [name, table] : tables_) {
        view.tables.push_back(table);
        view.rowsDone += table.rowsDone;
        view.rowsEstimated += table.rowsEstimated;
        view.bytesDone += table.bytesDone;
        view.bytesEstimated += table.bytesEstimated;
        view.chunksDone += table.chunksDone;
        view.chunksTotal += table.chunksTotal;
    }
    auto elapsed = now - rateStart_;
    if (unit_ == kUnitLoad && !finished_ && elapsed >= kMinRateWindow) {
        double seconds = std::chrono::duration<double>(elapsed).count();
        view.rowsPerSecond = static_cast<double>(view.rowsDone - std::min(view.rowsDone, rowsAtRateStart_)) / seconds;
        view.bytesPerSecond =
            static_cast<double>(view.bytesDone - std::min(view.bytesDone, bytesAtRateStart_)) / seconds;
        if (view.rowsPerSecond > 0) {
            view.etaSeconds = static_cast<double>(view.rowsEstimated - view.rowsDone) / view.rowsPerSecond;
        }
    }
    return view;
}

}  // namespace syncscope::load
