#include "ui/models/shard_lock_hold.h"

#include "engine/task/shard_ddl_locks.h"

#include <optional>

namespace syncscope::ui {

namespace {

bool severalSources(const task::StatusSnapshot& snapshot) {
    return snapshot.sourceId.find(',') != std::string::npos;  // wholeTaskStatus joins the sources' ids
}

// The one source the locks' shard tables name where `matches` holds; nullopt when none or several do.
template <typename Matches>
std::optional<std::string> onlySourceNaming(const task::StatusSnapshot& snapshot, Matches matches) {
    std::optional<std::string> found;
    for (const auto& lock : snapshot.shardLocks) {
        for (const auto* shards : {&lock.arrived, &lock.waitingFor}) {
            for (const auto& shard : *shards) {
                if (!matches(shard.table)) {
                    continue;
                }
                if (found && *found != shard.sourceId) {
                    return std::nullopt;  // two sources have it: which one this row is cannot be told
                }
                found = shard.sourceId;
            }
        }
    }
    return found;
}

}  // namespace

const task::ShardLockStatus* lockHoldingSource(const task::StatusSnapshot& snapshot, const std::string& sourceId) {
    return task::lockHoldingSource(snapshot.shardLocks, sourceId);
}

std::string sourceOfTable(const task::TablePointView& table, const task::StatusSnapshot& snapshot, bool* known) {
    *known = true;
    if (!table.sourceId.empty()) {
        return table.sourceId;  // the engine says whose point it is
    }
    if (!severalSources(snapshot)) {
        return snapshot.sourceId;
    }
    // A remote engine of an older API revision: its tables carry no source.
    if (auto source = onlySourceNaming(snapshot, [&table](const TableName& name) {
            return name.schema == table.schema && name.table == table.table;
        })) {
        return *source;
    }
    // A table that is no shard table of a lock: the one source whose shard tables have its schema.
    if (auto source =
            onlySourceNaming(snapshot, [&table](const TableName& name) { return name.schema == table.schema; })) {
        return *source;
    }
    *known = false;
    return {};
}

const task::ShardLockStatus* lockHoldingTable(const task::TablePointView& table, const task::StatusSnapshot& snapshot) {
    if (snapshot.shardLocks.empty()) {
        return nullptr;  // every task without shard-mode, at no cost per row
    }
    bool known = false;
    const std::string source = sourceOfTable(table, snapshot, &known);
    return known ? lockHoldingSource(snapshot, source) : nullptr;
}

}  // namespace syncscope::ui
