#include "engine/load/chunk_planner.h"

#include <algorithm>
#include <cstdio>

#include "engine/load/literal_row_reader.h"

namespace syncscope::load {

namespace {

constexpr int kChunkIndexDigits = 5;

std::string keyList(const std::vector<std::string>& columns) {
    std::string text;
    for (const auto& column : columns) {
        text += (text.empty() ? "" : ", ") + TableName::quote(column);
    }
    return text;
}

// Boundaries of an integer key from MIN and MAX, as literals; long double holds any 64-bit integer.
std::vector<KeyBound> integerBoundaries(const std::string& minText, const std::string& maxText, uint64_t chunks) {
    long double low = std::stold(minText);
    long double high = std::stold(maxText);
    std::vector<KeyBound> bounds;
    std::string previous = minText;
    for (uint64_t i = 1; i < chunks; ++i) {
        long double at = low + (high - low) * static_cast<long double>(i) / static_cast<long double>(chunks);
        char text[64];
        std::snprintf(text, sizeof text, "%.0Lf", at);
        if (text != previous) {
            bounds.push_back({text});
            previous = text;
        }
    }
    return bounds;
}

// The key values every `chunkRows` rows, in key order; none when `stop` was set on the way.
std::optional<std::vector<KeyBound>> walkedBoundaries(source::UpstreamConnection& upstream, const LoadTable& table,
                                                      uint64_t chunkRows, const std::atomic<bool>& stop) {
    std::vector<KeyBound> bounds;
    LoadChunk from;
    from.keyColumns = table.keyColumns;
    while (!stop) {
        std::string select = "SELECT " + keyList(table.keyColumns) + " FROM " + table.upstream.quoted() + " WHERE " +
                             chunkCondition(from) + " ORDER BY " + keyList(table.keyColumns) + " LIMIT 1 OFFSET " +
                             std::to_string(chunkRows);
        auto rows = queryLiteralRows(upstream, select);
        if (rows.empty()) {
            return bounds;
        }
        bounds.push_back(rows.front());
        from.lower = rows.front();
    }
    return std::nullopt;
}

// The chunks between `bounds`: the first open below, the last open above; the table's estimates
// shared evenly.
std::vector<LoadChunk> chunksBetween(const LoadTable& table, const std::vector<KeyBound>& bounds) {
    std::vector<LoadChunk> chunks(bounds.size() + 1);
    for (size_t i = 0; i < chunks.size(); ++i) {
        LoadChunk& chunk = chunks[i];
        chunk.name = chunkName(table.upstream, i);
        chunk.upstream = table.upstream;
        chunk.target = table.target;
        chunk.keyColumns = table.keyColumns;
        if (i > 0) {
            chunk.lower = bounds[i - 1];
        }
        if (i < bounds.size()) {
            chunk.upper = bounds[i];
        }
        chunk.estimatedRows = table.estimatedRows / chunks.size();
        chunk.estimatedBytes = table.estimatedBytes / chunks.size();
    }
    return chunks;
}

}  // namespace

std::string chunkName(const TableName& table, size_t index) {
    char digits[16];
    std::snprintf(digits, sizeof digits, "%0*zu", kChunkIndexDigits, index);
    return table.schema + "." + table.table + "." + digits;
}

uint64_t rowsPerChunk(const LoadTable& table, uint64_t chunkRows, uint64_t chunkBytes) {
    if (chunkBytes == 0 || table.estimatedRows == 0 || table.estimatedBytes == 0) {
        return std::max<uint64_t>(1, chunkRows);
    }
    uint64_t averageRowBytes = std::max<uint64_t>(1, table.estimatedBytes / table.estimatedRows);
    return std::max<uint64_t>(1, chunkBytes / averageRowBytes);
}

bool needsKeyWalk(const LoadTable& table, uint64_t chunkRows) {
    return !table.keyColumns.empty() && !table.integerKey && table.estimatedRows > chunkRows;
}

std::vector<LoadChunk> planChunks(source::UpstreamConnection& upstream, const LoadTable& table, uint64_t chunkRows) {
    std::vector<KeyBound> bounds;
    if (!table.keyColumns.empty() && table.integerKey && table.estimatedRows > chunkRows) {
        auto range = queryLiteralRows(upstream, "SELECT MIN(" + TableName::quote(table.keyColumns.front()) + "), MAX(" +
                                                    TableName::quote(table.keyColumns.front()) + ") FROM " +
                                                    table.upstream.quoted());
        if (!range.empty() && range.front()[0] != "NULL") {
            bounds = integerBoundaries(range.front()[0], range.front()[1],
                                       (table.estimatedRows + chunkRows - 1) / chunkRows);
        }
    }
    return chunksBetween(table, bounds);
}

std::optional<std::vector<LoadChunk>> walkChunks(source::UpstreamConnection& upstream, const LoadTable& table,
                                                 uint64_t chunkRows, const std::atomic<bool>& stop) {
    std::optional<std::vector<KeyBound>> bounds = walkedBoundaries(upstream, table, chunkRows, stop);
    if (!bounds) {
        return std::nullopt;
    }
    return chunksBetween(table, *bounds);
}

}  // namespace syncscope::load
