// The shard-merge feature's group: identical upstream tables shard_1..shard_N (ids kept disjoint per shard,
// id = shard + k * kShardIdStride) that a route merges into one downstream table, shard_all, under
// shard-mode: pessimistic. The replica keeps the shards apart; the oracle compares their union.
#pragma once

#include <string>
#include <vector>

#include "tests/integration/differential/fuzz_random.h"
#include "tests/integration/differential/schema_model.h"

namespace syncscope::differential {

constexpr const char* kShardTablePattern = "shard_?";  // the route's table-pattern: every shard, not the target
constexpr const char* kShardTarget = "shard_all";
constexpr int kShardIdStride = 10;  // more than the largest shard number, so that ids never collide
constexpr int kMinShards = 2;
constexpr int kMaxShards = 3;
constexpr int kShardTextWidth = 16;  // the text column's width as created (MODIFY widens it)

struct ShardGroup {
    int count = 0;         // 0: the case has no shard group
    TableSpec definition;  // the shards' definition as created, named after the target

    bool present() const { return count > 0; }
    std::string shardName(int shard) const;  // shard counts from 1
    std::vector<std::string> shardNames() const;
    TableSpec shardTable(int shard) const;
    TableSpec targetTable() const;
};

ShardGroup generateShardGroup(FuzzRandom& random);

}  // namespace syncscope::differential
