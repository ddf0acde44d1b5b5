// The keys that order row changes across workers: a hash of each identifying key's values (primary
// key and every unique index of the downstream table) in the new and the old image. Two changes that share a key touch
// the same row (or compete for the same unique value) and must be applied in their binlog order.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/apply/collation_folder.h"
#include "engine/apply/row_change.h"

namespace syncscope::apply {

// The first key is the row key of the image the change leaves behind (after for insert and
// update, before for delete): the dispatcher spreads rows by it. Unique keys with a NULL value are
// left out, since NULLs never collide. A table without a primary or not-null unique key, or with a
// unique index that cannot be hashed from values, has one key: the table itself. A table tied to others by
// cascading foreign keys downstream has one key: its family (engine/schema/cascade_family.h).
// Text values are hashed as their column's collation compares them (`folder`; nullptr folds only what
// needs no server): where that is not exact, every value of the column is one key.
std::vector<uint64_t> causalityKeys(const RowChange& change, CollationFolder* folder = nullptr);
// The same into `keys` (cleared first), whose capacity a caller reuses from change to change.
void causalityKeysInto(const RowChange& change, CollationFolder* folder, std::vector<uint64_t>& keys);
// Gives `change` the keys it was dispatched by, to carry into its worker's batch (RowChange::keys); with more
// than fit it carries none.
void carryKeys(RowChange& change, std::span<const uint64_t> keys);

}  // namespace syncscope::apply
