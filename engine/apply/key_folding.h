// Folds a batch's changes of one row into their net effect, as DM's `compact` does: sysbench's
// write-only transaction updates a row twice, deletes it and inserts it again, four statements the
// downstream executes one after the other where one write leaves the same row. A worker's batch holds
// every change of a key value in binlog order (causality keys send them to one worker), and commits
// them in one transaction, so nobody downstream sees the steps in between.
//
// Exact only where changes to different key values cannot meet downstream and a key's steps leave
// nothing behind but its final row: the key compares exactly (rowKeyComparesExactly), no foreign key
// references the table or ties it to a cascade family, no update in the batch moves a key of the table,
// the changes are not safe-mode replays, every change of the table in the batch has one structure, and
// either
// - the table's only unique index downstream is its row key (no other unique index, trigger or column of
//   its own: TableSchema::rowKeyIsOnlyUniqueIndex), or
// - the downstream's unique indexes are known, it has no trigger and no column of its own, and the key's
//   changes share no causality key (row key or unique value of either image, RowChange::keys) with any
//   other change of the batch: no other row of the batch takes or gives up a unique value the key's rows
//   hold, so no step in between can see whether the key's row was there (sysbench's tables with a unique
//   key on c). Such a key's DELETE and INSERT become an UPDATE by the key, not an upsert, which could
//   write over another row holding the new unique value; where that UPDATE finds no row, the batch runs
//   again without folding (DmlStatement::unfoldWhenUnmatched), so that the INSERT still writes the row.
// Anything else keeps each change.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/apply/row_change.h"

namespace syncscope::apply {

// What becomes of one change of the batch. The last change of a folded key carries the net effect:
//   Keep         as it is: a key's only change, or a last change that already is the net effect (a DELETE
//                of a row that was there, an UPDATE of one that was there, an INSERT of a new row)
//   Drop         folded into a later change of its key, or a row inserted and deleted within the batch
//   InsertAfter  an UPDATE of a row the batch inserted: an INSERT of its after image
//   UpsertAfter  an INSERT of a row the batch deleted before: the row was there, so its after image is
//                written over it (INSERT ... ON DUPLICATE KEY UPDATE, which the table allows)
//   UpdateAfter  the same where the table has another unique index: an UPDATE by the key to its after image
enum class Fold : uint8_t { Keep, Drop, InsertAfter, UpsertAfter, UpdateAfter };

// One Fold per change, or empty when no key has two changes that fold. A key whose changes do not
// follow one another (an INSERT of a row that is there, an image that is not the previous one's
// after image) keeps every change: the downstream reports what is wrong as it would without folding.
std::vector<Fold> foldByKey(std::span<const RowChange> changes);

}  // namespace syncscope::apply
