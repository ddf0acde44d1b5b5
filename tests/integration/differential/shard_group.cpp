#include "tests/integration/differential/shard_group.h"

namespace syncscope::differential {

std::string ShardGroup::shardName(int shard) const {
    return "shard_" + std::to_string(shard);
}

std::vector<std::string> ShardGroup::shardNames() const {
    std::vector<std::string> names;
    for (int shard = 1; shard <= count; ++shard) {
        names.push_back(shardName(shard));
    }
    return names;
}

TableSpec ShardGroup::shardTable(int shard) const {
    TableSpec table = definition;
    table.name = shardName(shard);
    return table;
}

TableSpec ShardGroup::targetTable() const {
    TableSpec table = definition;
    table.name = kShardTarget;
    return table;
}

ShardGroup generateShardGroup(FuzzRandom& random) {
    ShardGroup group;
    group.count = random.range(kMinShards, kMaxShards);
    group.definition.name = kShardTarget;
    group.definition.columns = {{"id", ValueKind::Int, "INT", false, {}},
                                {"a", ValueKind::Int, "INT", true, {}},
                                {"b", ValueKind::Text, "VARCHAR(" + std::to_string(kShardTextWidth) + ")", true, {}}};
    group.definition.primaryKey = {"id"};
    return group;
}

}  // namespace syncscope::differential
