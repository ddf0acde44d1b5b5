// The shard-merge feature's steps: row statements on the shard tables, and shard DDL sequences: one
// compatible DDL (ADD COLUMN with a default or NULL, ADD INDEX with a name, MODIFY widening the VARCHAR)
// run on each shard as a separate step, in random order, so that the workload and faults land between them
// and the engine's pessimistic lock waits across them. A sequence started is always finished (finishSteps):
// a DDL on only some shards would leave the lock waiting for ever.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tests/integration/differential/fuzz_random.h"
#include "tests/integration/differential/shard_group.h"
#include "tests/integration/differential/workload.h"

namespace syncscope::differential {

class ShardWorkload {
public:
    ShardWorkload(FuzzRandom& random, const ShardGroup& group);

    // A shard step for the step numbered `index`, or nothing (the caller then takes one of its own).
    std::optional<Step> nextStep(int index);
    // The rest of an open DDL sequence, one step per shard that has not run it.
    std::vector<Step> finishSteps();

private:
    struct Sequence {
        std::string label;
        std::string ddl;          // with `{table}` where the shard's name goes
        std::string addedColumn;  // the column it adds; empty for an index or a MODIFY
        std::vector<int> order;   // the shards still to run it, next first
    };

    Step row(int shard);
    Step crossShardTransaction();
    Step startSequence(int index);
    Step sequenceStep();
    std::string insert(int shard);
    std::string textValue();

    FuzzRandom& random_;
    ShardGroup group_;                             // a copy: the case spec that holds the group is returned by value
    std::vector<std::vector<std::string>> added_;  // per shard (index shard - 1): the columns its DDLs added
    int textWidth_ = kShardTextWidth;
    std::optional<Sequence> open_;
};

}  // namespace syncscope::differential
