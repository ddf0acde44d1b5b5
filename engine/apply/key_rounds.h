// Orders one table's row changes of a batch by round where the downstream allows it, so that sorting by
// round, then by kind, brings the changes of one kind together and they merge into one statement
// (sysbench's write-only transaction interleaves UPDATE, UPDATE, DELETE, INSERT) while every pair of
// changes that could touch one row, or compete for one unique value, keeps its binlog order.
// - Conflict rounds (conflictRounds), from the causality keys the dispatcher carried with each change: a
//   change's round is one more than the highest round of an earlier change sharing any key with it (row
//   key or unique value, before or after image, folded as the downstream compares). Changes of one round
//   share no key, so they commute: any order applies them alike, and no two of them can collide on a
//   unique index (tables with a second unique key, text keys, key moves).
// - Key rounds (keyRoundOrder), where no keys were carried: when the table's only unique index is its row
//   key and the key compares exactly, the n-th change of each key value is in round n.
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

// The conflict round (from 1) of each change, in order, or nullopt when one of them carries no keys
// (RowChange::carriedKeys). Equal hashes of different values only add order. All changes must be of one
// table structure, and the caller must know that sharing no causality key means commuting: the
// downstream's unique indexes are known, no trigger, no cascade, no safe mode, foreign key checks off.
std::optional<std::vector<uint32_t>> conflictRounds(std::span<const RowChange* const> changes);

}  // namespace syncscope::apply
