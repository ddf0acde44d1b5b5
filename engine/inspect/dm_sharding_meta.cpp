#include "engine/inspect/dm_sharding_meta.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>

#include <nlohmann/json.hpp>

#include <memory>
#include <stdexcept>

#include "engine/apply/quoted_name.h"
#include "engine/common/server_errors.h"

namespace syncscope::inspect {

namespace {

// DM writes go-mysql's Position as {"Name": "mysql-bin.000001", "Pos": 1234}.
std::vector<DmShardDdl> sequenceFromJson(const std::string& json) {
    std::vector<DmShardDdl> items;
    for (const nlohmann::json& item : nlohmann::json::parse(json)) {
        DmShardDdl ddl;
        const nlohmann::json& first = item.at("first-pos");
        ddl.file = first.value("Name", std::string());
        ddl.pos = first.value("Pos", uint64_t{0});
        ddl.ddls = item.value("ddls", std::vector<std::string>{});
        ddl.source = item.value("source", std::string());
        items.push_back(std::move(ddl));
    }
    return items;
}

}  // namespace

std::vector<std::string> DmShardingGroup::tablesAtActiveDdl() const {
    std::vector<std::string> names;
    for (const auto& [table, sequence] : tables) {
        if (unresolved() && static_cast<size_t>(activeIndex) < sequence.size()) {
            names.push_back(table);
        }
    }
    return names;
}

std::vector<DmShardingGroup> readDmShardingMeta(sql::Connection& connection, const std::string& metaSchema,
                                                const std::string& task, const std::string& sourceId) {
    const std::string table = apply::quoteName(metaSchema) + "." + apply::quoteName(task + "_syncer_sharding_meta");
    const std::string query = "SELECT target_table_id, source_table_id, active_index, is_global, data FROM " + table +
                              " WHERE source_id = ? ORDER BY target_table_id, is_global DESC, source_table_id";
    std::map<std::string, DmShardingGroup> groups;
    try {
        std::unique_ptr<sql::PreparedStatement> select(connection.prepareStatement(query));
        select->setString(1, sourceId);
        std::unique_ptr<sql::ResultSet> rows(select->executeQuery());
        while (rows->next()) {
            const std::string target = rows->getString(1);
            const std::string shard = rows->getString(2);
            DmShardingGroup& group = groups[target];
            group.target = target;
            group.activeIndex = rows->getInt(3);
            try {
                std::vector<DmShardDdl> sequence = sequenceFromJson(std::string(rows->getString(5)));
                if (rows->getBoolean(4)) {
                    group.global = std::move(sequence);
                } else {
                    group.tables[shard] = std::move(sequence);
                }
            } catch (const std::exception& e) {
                throw std::runtime_error("the row of " + target + " (" + (shard.empty() ? "global" : shard) + ") in " +
                                         table + " cannot be read: " + e.what());
            }
        }
    } catch (const sql::SQLException& e) {
        if (e.getErrorCode() == server_error::kNoSuchTable || e.getErrorCode() == server_error::kUnknownDatabase) {
            return {};
        }
        throw std::runtime_error("cannot read DM's sharding meta " + table + ": error " +
                                 std::to_string(e.getErrorCode()) + ": " + e.what());
    }
    std::vector<DmShardingGroup> out;
    for (auto& [target, group] : groups) {
        out.push_back(std::move(group));
    }
    return out;
}

}  // namespace syncscope::inspect
