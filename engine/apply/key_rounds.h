// Orders one table's row changes of a batch by "key round" where the downstream allows it: when the
// table's only unique index is its row key, changes to different key values commute, so only the
// changes of one key value must keep their order. The n-th change of each key value is in round n;
// sorting by round, then by kind, keeps every key's order and brings the changes of one kind together
// so that they merge into one statement (sysbench's write-only transaction interleaves UPDATE, UPDATE,
// DELETE, INSERT).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "engine/apply/row_change.h"

namespace syncscope::apply {

struct KeyedStep {
    const RowChange* change;
    const std::vector<SqlValue>* image;  // the image whose row key the step acts on
    int kindRank;                        // order of kinds within a round (0..3)
};

// Whether the row key's values in `image` equal downstream exactly when they are equal here: every key
// column is of a type compared without a collation (numbers, temporals, decimals, ENUM, SET) and none is
// NULL. Then two changes act on the same row exactly when their key values are equal.
bool rowKeyComparesExactly(const schema::TableSchema& table, const std::vector<SqlValue>& image);

// FNV-1a over the row key's values in `image`. Equal keys always hash alike; different keys rarely do.
uint64_t rowKeyHash(const schema::TableSchema& table, const std::vector<SqlValue>& image);

// The positions of `steps` in round order, or nullopt when they must keep their order: the table has
// another unique index (or it is not known), a key of text or floats (collations make 'a' equal 'A'),
// a NULL in the key, or an update that moves its key. All steps must be of one table and structure.
std::optional<std::vector<size_t>> keyRoundOrder(std::span<const KeyedStep> steps);

}  // namespace syncscope::apply
