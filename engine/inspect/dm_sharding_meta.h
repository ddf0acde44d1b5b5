// DM's own sharding state in the downstream (pessimistic shard-mode, dm/syncer/sharding-meta):
// `<meta-schema>`.`<task>_syncer_sharding_meta`, per source and merged table one global row (the DDL sequence
// every shard table must read, `is_global` 1) and one row per shard table that read DDLs, with `active_index`
// the first DDL of the sequence not yet resolved. While it is below the global sequence's length a sharding DDL
// lock is unresolved: DM holds the source's global point before that DDL's first position, and the shard tables'
// points may be ahead of it by design. Read-only.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sql {
class Connection;
}

namespace syncscope::inspect {

// One DDL of a sequence: where it was first read (the event's start), its statements, the shard table.
struct DmShardDdl {
    std::string file;
    uint64_t pos = 0;
    std::vector<std::string> ddls;
    std::string source;  // `schema`.`table` of the shard table
};

struct DmShardingGroup {
    std::string target;  // `schema`.`table` of the merged table
    int activeIndex = 0;
    std::vector<DmShardDdl> global;
    std::map<std::string, std::vector<DmShardDdl>> tables;  // shard table -> its sequence

    // A lock is unresolved: the active DDL of the global sequence.
    bool unresolved() const { return activeIndex >= 0 && static_cast<size_t>(activeIndex) < global.size(); }
    // The shard tables (among those DM lists) that read the active DDL.
    std::vector<std::string> tablesAtActiveDdl() const;
};

// The groups of `sourceId` kept by a DM deployment of `task`; none when the table does not exist. Throws
// std::runtime_error naming the table and the row when a row cannot be read.
std::vector<DmShardingGroup> readDmShardingMeta(sql::Connection& connection, const std::string& metaSchema,
                                                const std::string& task, const std::string& sourceId);

}  // namespace syncscope::inspect
