// DM's sharding prechecks, for the upstream tables that routes merge into one downstream table: the shard
// tables must have one definition, an auto-increment key of theirs collides in the merged table, and without
// a key their rows cannot be told apart there. Rules over the facts already read: no query of their own.
#pragma once

#include <string>
#include <vector>

#include "engine/precheck/finding.h"
#include "engine/precheck/server_facts.h"
#include "engine/precheck/table_rules.h"

namespace syncscope::precheck {

// One downstream table that two or more of the source's upstream tables route into.
struct MergedTable {
    filter::TableName target;
    std::vector<filter::TableName> shards;  // in the order of the mappings
};

std::vector<MergedTable> mergedTables(const std::vector<TableMapping>& mappings);

// `server`: the upstream as findings name it; `sourceId`: the one source this precheck reads.
std::vector<Finding> checkShardTables(const ServerFacts& upstream, const std::vector<TableMapping>& mappings,
                                      const std::string& server, const std::string& sourceId);

// The first difference of `shard` from `reference` (columns in order: name, type, nullability, default,
// auto-increment; then the primary and unique keys), e.g. "`sm_2`.`t` has column `c` int(11) NOT NULL
// DEFAULT 7 where `sm_1`.`t` has none"; empty when they agree.
std::string firstStructureDifference(const TableFacts& reference, const TableFacts& shard);

}  // namespace syncscope::precheck
