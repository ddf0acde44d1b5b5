#include "engine/checkpoint/online_ddl_store.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include <memory>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "engine/apply/quoted_name.h"
#include "engine/checkpoint/checkpoint_table.h"

namespace syncscope::checkpoint {

namespace {

// DM's column definitions, unchanged.
constexpr const char* kColumnDefinitions =
    " (\n"
    "  id VARCHAR(32) NOT NULL,\n"
    "  ghost_schema VARCHAR(128) NOT NULL,\n"
    "  ghost_table VARCHAR(128) NOT NULL,\n"
    "  ddls text,\n"
    "  update_time timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,\n"
    "  UNIQUE KEY uk_id_schema_table (id, ghost_schema, ghost_table)\n"
    ")";

}  // namespace

OnlineDdlStore::OnlineDdlStore(sql::Connection& connection, std::string metaSchema, std::string taskName)
    : connection_(connection),
      qualifiedName_(apply::quoteName(metaSchema) + "." + apply::quoteName(taskName + kTableSuffix)) {}

void OnlineDdlStore::fail(const std::string& what, const std::string& sql, int code,
                          const std::string& serverMessage) const {
    throw CheckpointTableError::about("online DDL table " + qualifiedName_, what, sql, code, serverMessage);
}

void OnlineDdlStore::ensureTable() {
    const std::string create = "CREATE TABLE IF NOT EXISTS " + qualifiedName_ + kColumnDefinitions;
    try {
        std::unique_ptr<sql::Statement> run(connection_.createStatement());
        run->execute(create);
    } catch (const sql::SQLException& e) {
        fail("cannot create it", create, e.getErrorCode(), e.what());
    }
}

std::string OnlineDdlStore::toJson(const OnlineDdlEntry& entry) {
    nlohmann::json json{{"schema", entry.realSchema}, {"table", entry.realTable}, {"ddls", entry.ddls}};
    if (!entry.swapBefore.empty()) {
        json["syncscope_swap_before"] = entry.swapBefore;
    }
    return json.dump();
}

OnlineDdlEntry OnlineDdlStore::fromJson(const std::string& shadowSchema, const std::string& shadowTable,
                                        const std::string& json) {
    nlohmann::json parsed = nlohmann::json::parse(json, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) {
        throw std::invalid_argument("ddls is not a JSON object");
    }
    OnlineDdlEntry entry{shadowSchema, shadowTable, {}, {}, {}, {}};
    for (const auto& [key, field] : {std::pair{"schema", &entry.realSchema}, std::pair{"table", &entry.realTable}}) {
        auto found = parsed.find(key);
        if (found == parsed.end() || !found->is_string()) {
            throw std::invalid_argument(std::string("ddls has no string \"") + key + "\"");
        }
        *field = found->get<std::string>();
    }
    if (auto before = parsed.find("syncscope_swap_before"); before != parsed.end() && before->is_string()) {
        entry.swapBefore = before->get<std::string>();
    }
    auto ddls = parsed.find("ddls");
    if (ddls != parsed.end() && !ddls->is_null()) {
        if (!ddls->is_array()) {
            throw std::invalid_argument("ddls' \"ddls\" is not a list");
        }
        for (const auto& ddl : *ddls) {
            if (!ddl.is_string()) {
                throw std::invalid_argument("ddls' \"ddls\" holds something that is not a statement");
            }
            entry.ddls.push_back(ddl.get<std::string>());
        }
    }
    return entry;
}

std::vector<OnlineDdlEntry> OnlineDdlStore::load(const std::string& sourceId) {
    const std::string query = "SELECT ghost_schema, ghost_table, ddls FROM " + qualifiedName_ + " WHERE id = ?";
    std::vector<OnlineDdlEntry> entries;
    try {
        std::unique_ptr<sql::PreparedStatement> select(connection_.prepareStatement(query));
        select->setString(1, sourceId);
        std::unique_ptr<sql::ResultSet> rows(select->executeQuery());
        while (rows->next()) {
            std::string schema = rows->getString(1);
            std::string table = rows->getString(2);
            std::string json = rows->isNull(3) ? std::string("{}") : std::string(rows->getString(3));
            try {
                entries.push_back(fromJson(schema, table, json));
            } catch (const std::invalid_argument& e) {
                fail("source '" + sourceId + "', shadow table " + schema + "." + table +
                         ": its recorded DDLs cannot be read (" + e.what() + ")",
                     query, 0, {});
            }
        }
    } catch (const sql::SQLException& e) {
        if (isMissingTable(e.getErrorCode())) {
            return {};
        }
        fail("cannot load the online schema changes of source '" + sourceId + "'", query, e.getErrorCode(), e.what());
    }
    return entries;
}

void OnlineDdlStore::write(const std::string& sourceId, const std::vector<OnlineDdlWrite>& writes) {
    const std::string replace =
        "REPLACE INTO " + qualifiedName_ + " (id, ghost_schema, ghost_table, ddls) VALUES (?, ?, ?, ?)";
    const std::string remove =
        "DELETE FROM " + qualifiedName_ + " WHERE id = ? AND ghost_schema = ? AND ghost_table = ?";
    for (const OnlineDdlWrite& write : writes) {
        const std::string& statement = write.entry ? replace : remove;
        try {
            std::unique_ptr<sql::PreparedStatement> run(connection_.prepareStatement(statement));
            run->setString(1, sourceId);
            run->setString(2, write.shadowSchema);
            run->setString(3, write.shadowTable);
            if (write.entry) {
                run->setString(4, toJson(*write.entry));
            }
            run->executeUpdate();
        } catch (const sql::SQLException& e) {
            fail("cannot write the shadow table " + write.shadowSchema + "." + write.shadowTable + " of source '" +
                     sourceId + "'",
                 statement, e.getErrorCode(), e.what());
        }
    }
}

void OnlineDdlStore::remove(const std::string& sourceId) {
    try {
        deleteSourceRows(connection_, qualifiedName_, sourceId);
    } catch (const sql::SQLException& e) {
        fail("cannot remove the online schema changes of source '" + sourceId + "'",
             "DELETE FROM " + qualifiedName_ + " WHERE id = ?", e.getErrorCode(), e.what());
    }
}

}  // namespace syncscope::checkpoint
