// The parts of DmlBuilder's work shared by its files: a change as the SQL-level steps it becomes.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/apply/row_change.h"

namespace syncscope::apply {

// One SQL-level step of a change. A change becomes one step, or two (safe-mode DELETE + write).
enum class StepKind { Write, Delete, Update };

// How a Write step writes: INSERT, REPLACE, or INSERT ... ON DUPLICATE KEY UPDATE every column. An Update
// step marked InsertWhenUnmatched is a safe-mode write as UPDATE by the key, then INSERT of the after image
// when the UPDATE found no row (DmlStatement::insertWhenUnmatched).
enum class WriteMode { Insert, Replace, Upsert, InsertWhenUnmatched };

struct Step {
    StepKind kind;
    WriteMode write = WriteMode::Insert;
    const RowChange* change;
    const std::vector<SqlValue>* image;  // Write: after; Delete: before; Update: before (WHERE)
    uint32_t round = 0;                  // its conflict round in its table's run (key_rounds.h); 0: none
    // An UPDATE that stands for its row's DELETE and INSERT folded together (Fold::UpdateAfter): when it
    // finds no row, the INSERT would have written one (DmlStatement::unfoldWhenUnmatched).
    bool foldedReinsert = false;
};

}  // namespace syncscope::apply
