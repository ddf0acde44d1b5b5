// Cuts a table with a one-column integer key into chunks by key value (as pt-table-sync's Chunk
// algorithm does) instead of walking the key to find where each chunk ends: both servers then read
// each row once, at the same time, and send no rows. Pure arithmetic, no server.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/verify/chunk_sql.h"
#include "engine/verify/compared_table.h"

namespace syncscope::verify {

class KeyValueChunks {
public:
    // A chunk never spans more than this many key values per row it aims at, so that it holds at most
    // this many times the rows it aims at however dense the keys turn out to be (a unique integer key
    // holds at most one row per value). Tables sparser than this on average are walked instead.
    static constexpr uint64_t kMaxValuesPerRow = 4;

    // Whether the table's key is one integer column (signed or unsigned).
    static bool applies(const ComparedTable& table);

    // lowest/highest: the upstream's MIN and MAX of the key as the server printed them (nullopt: the
    // table is empty); estimatedRows: the upstream's estimate of its rows.
    KeyValueChunks(const ComparedTable& table, const std::optional<std::string>& lowest,
                   const std::optional<std::string>& highest, uint64_t estimatedRows);

    // Whether the key values are dense enough on average (at least one row per kMaxValuesPerRow values).
    bool dense() const;
    // The next chunk, aiming at `rows` rows: (previous end, end], the first open below and the last
    // (from the upstream's highest key on) open above, so that rows beyond either end are compared
    // too. nullopt once the open-ended last chunk was given.
    std::optional<KeyRange> next(size_t rows);
    // The last chunk given held `rows` rows upstream: the density the next widths are reckoned from.
    void observed(uint64_t rows) { observed(rows, width_); }
    // The same for an earlier chunk (chunks are compared after later ones were given), of that width.
    void observed(uint64_t rows, uint64_t width);
    // The width in key values of the last chunk given.
    uint64_t width() const { return width_; }
    // The last chunk given split into `count` parts of equal key width (fewer where it spans fewer
    // values), covering it without gap or overlap; the first and last keep its open ends.
    std::vector<KeyRange> parts(size_t count) const;
    // Chunks left after the last one given, at the current width (progress).
    uint64_t chunksLeft(size_t rows) const;

private:
    // Key values are kept as unsigned offsets from the type's lowest value, so that signed and
    // unsigned keys share one order and one arithmetic.
    uint64_t toOffset(const std::string& text) const;
    std::string toText(uint64_t offset) const;
    uint64_t widthFor(size_t rows) const;

    bool signed_ = true;
    bool empty_ = true;
    uint64_t lowest_ = 0;
    uint64_t highest_ = 0;
    double rowsPerValue_ = 1.0;
    // The last chunk given: its values (start, end], its width, and whether it was the last.
    uint64_t start_ = 0;
    uint64_t end_ = 0;
    uint64_t width_ = 0;
    bool first_ = true;
    bool openBelow_ = false;
    bool openAbove_ = false;
    bool done_ = false;
};

}  // namespace syncscope::verify
