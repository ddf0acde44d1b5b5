// The keys that order row changes across workers: a hash of each identifying key's values (primary
// key and not-null unique keys) in the new and the old image. Two changes that share a key touch the
// same row (or compete for the same unique value) and must be applied in their binlog order.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/apply/row_change.h"

namespace syncscope::apply {

// The first key is the row key of the image the change leaves behind (after for insert and
// update, before for delete): the dispatcher spreads rows by it. Unique keys with a NULL value are
// left out, since NULLs never collide. A table without a primary or not-null unique key has one key:
// the table itself.
std::vector<uint64_t> causalityKeys(const RowChange& change);

}  // namespace syncscope::apply
