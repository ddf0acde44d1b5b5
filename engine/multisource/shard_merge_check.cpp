#include "engine/multisource/shard_merge_check.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "engine/filter/block_allow_list.h"
#include "engine/filter/table_router.h"
#include "engine/multisource/shard_lock_table.h"
#include "engine/source/upstream_connection.h"
#include "engine/task/optimistic_shard_ddl.h"

namespace syncscope::multisource {

namespace {

constexpr const char* kBaseTablesQuery =
    "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES WHERE TABLE_TYPE = 'BASE TABLE' "
    "ORDER BY TABLE_SCHEMA, TABLE_NAME";

std::string folded(const std::string& name, bool caseSensitive) {
    if (caseSensitive) {
        return name;
    }
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return lower;
}

}  // namespace

SourceTables routedTables(const task::TaskSetup& setup, const std::vector<TableName>& tables) {
    SourceTables routed{setup.sourceId, {}};
    for (const TableName& table : tables) {
        if (filter::BlockAllowList::isSystemSchema(table.schema) ||
            (setup.blockAllow && !setup.blockAllow->allows(table))) {
            continue;
        }
        TableName target = setup.router ? setup.router->route(table) : table;
        routed.tables.push_back({table, target});
    }
    return routed;
}

std::string sharedDownstreamTables(const std::vector<SourceTables>& sources, bool caseSensitive) {
    struct Writers {
        TableName downstream;
        std::map<std::string, std::vector<TableName>> upstreamBySource;
    };
    std::map<TableName, Writers> byTarget;
    for (const SourceTables& source : sources) {
        for (const RoutedTable& table : source.tables) {
            TableName key{folded(table.downstream.schema, caseSensitive),
                          folded(table.downstream.table, caseSensitive)};
            Writers& writers = byTarget[key];
            writers.downstream = table.downstream;
            writers.upstreamBySource[source.sourceId].push_back(table.upstream);
        }
    }
    std::string problem;
    for (const auto& [key, writers] : byTarget) {
        if (writers.upstreamBySource.size() < 2) {
            continue;
        }
        std::string line = "downstream table " + writers.downstream.text() + " would be written by";
        bool first = true;
        for (const auto& [sourceId, upstream] : writers.upstreamBySource) {
            line += first ? " " : " and ";
            first = false;
            line += "source '" + sourceId + "' (";
            for (size_t i = 0; i < upstream.size(); ++i) {
                line += (i == 0 ? "" : ", ") + upstream[i].text();
            }
            line += ")";
        }
        problem += (problem.empty() ? "" : "\n") + line;
    }
    return problem;
}

std::vector<TableName> upstreamTables(const task::TaskSetup& setup) {
    std::vector<TableName> tables;
    try {
        source::UpstreamConnection connection(setup.upstream);
        for (const source::Row& row : connection.query(kBaseTablesQuery)) {
            if (row.size() >= 2 && row[0] && row[1]) {
                tables.push_back({*row[0], *row[1]});
            }
        }
    } catch (const Error& e) {
        throw Error("source '" + setup.sourceId +
                    "': cannot list the upstream's tables to check that no two sources "
                    "write one downstream table: " +
                    e.what());
    }
    return tables;
}

std::vector<task::ShardGroup> shardGroups(const std::vector<SourceTables>& sources, bool caseSensitive) {
    std::map<TableName, task::ShardGroup> byTarget;
    for (const SourceTables& source : sources) {
        for (const RoutedTable& table : source.tables) {
            TableName key{folded(table.downstream.schema, caseSensitive),
                          folded(table.downstream.table, caseSensitive)};
            task::ShardGroup& group = byTarget[key];
            group.target = table.downstream;
            group.members.push_back({source.sourceId, table.upstream});
        }
    }
    std::vector<task::ShardGroup> groups;
    for (auto& [key, group] : byTarget) {
        if (group.members.size() >= 2) {
            groups.push_back(std::move(group));
        }
    }
    return groups;
}

void planShardMerge(std::vector<task::TaskSetup>& subtasks, bool caseSensitive, const std::string& shardMode,
                    bool strictOptimistic) {
    std::vector<SourceTables> sources;
    for (const task::TaskSetup& setup : subtasks) {
        sources.push_back(routedTables(setup, upstreamTables(setup)));
    }
    const std::string taskName = subtasks.empty() ? std::string() : subtasks.front().taskName;
    if (shardMode.empty()) {
        std::string shared = sharedDownstreamTables(sources, caseSensitive);
        if (!shared.empty()) {
            throw ShardMergeRefused("task " + taskName +
                                    ": several sources write into one downstream table, and the task file sets no "
                                    "shard-mode; nothing was started:\n" +
                                    shared +
                                    "\nset shard-mode: pessimistic to merge them (DM's shard merge), or route each "
                                    "source's tables to tables of their own");
        }
        return;
    }
    std::vector<task::ShardGroup> groups = shardGroups(sources, caseSensitive);
    if (groups.empty()) {
        return;
    }
    if (shardMode != config::TaskConfig::kOptimisticShardMode &&
        shardMode != config::TaskConfig::kPessimisticShardMode) {
        throw ShardMergeRefused(
            "task " + taskName + ": shard-mode '" + shardMode +
            "' is not a shard mode; nothing was started. Set shard-mode: pessimistic or optimistic, "
            "or route the shards to tables of their own");
    }
    const task::TaskSetup& first = subtasks.front();
    auto ledger = std::make_shared<ShardLockTable>(first.downstream, first.metaSchema, first.taskName);
    std::shared_ptr<task::OptimisticShardDdl> optimistic;
    if (shardMode == config::TaskConfig::kOptimisticShardMode) {
        optimistic = std::make_shared<task::OptimisticShardDdl>(groups, strictOptimistic, ledger);
    }
    auto locks = std::make_shared<task::ShardDdlLocks>(taskName, std::move(groups), std::move(ledger));
    locks->setAuditLog(first.auditLogPath);  // the DBA's unlocks, beside the task's other actions
    for (task::TaskSetup& setup : subtasks) {
        setup.shardLocks = locks;
        setup.optimisticShards = optimistic;
    }
}

}  // namespace syncscope::multisource
