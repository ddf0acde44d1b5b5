#include "engine/multisource/shard_lock_table.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include <nlohmann/json.hpp>

#include <memory>

#include "engine/apply/downstream_connection.h"
#include "engine/apply/quoted_name.h"
#include "engine/common/error.h"
#include "engine/common/server_errors.h"

namespace syncscope::multisource {

namespace {

constexpr const char* kColumnDefinitions =
    " (\n"
    "  target_schema VARCHAR(64) NOT NULL,\n"
    "  target_table VARCHAR(64) NOT NULL,\n"
    "  first_arrival VARCHAR(255) NOT NULL,\n"
    "  ddls JSON NOT NULL,\n"
    "  arrivals JSON NOT NULL,\n"
    "  update_time timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,\n"
    "  PRIMARY KEY (target_schema, target_table, first_arrival)\n"
    ")";

}  // namespace

ShardLockTable::ShardLockTable(ServerSettings downstream, std::string metaSchema, std::string taskName)
    : downstream_(std::move(downstream)),
      metaSchema_(std::move(metaSchema)),
      qualifiedName_(apply::quoteName(metaSchema_) + "." + apply::quoteName(taskName + kTableSuffix)) {}

std::string ShardLockTable::describe() const {
    return qualifiedName_ + " on " + downstream_.describe();
}

std::string ShardLockTable::firstArrival(const task::ExecutedShardLock& lock) {
    return lock.arrivals.empty() ? std::string()
                                 : lock.arrivals.front().shard.text() + "@" + lock.arrivals.front().position;
}

std::string ShardLockTable::arrivalsJson(const std::vector<task::ShardArrival>& arrivals) {
    nlohmann::json list = nlohmann::json::array();
    for (const task::ShardArrival& arrival : arrivals) {
        list.push_back(
            {{"source", arrival.shard.sourceId},
             {"schema", arrival.shard.table.schema},
             {"table", arrival.shard.table.table},
             {"position", arrival.position},
             {"since", std::chrono::duration_cast<std::chrono::seconds>(arrival.since.time_since_epoch()).count()}});
    }
    return list.dump();
}

std::vector<task::ShardArrival> ShardLockTable::arrivalsFromJson(const std::string& json) {
    nlohmann::json list = nlohmann::json::parse(json);
    std::vector<task::ShardArrival> arrivals;
    for (const nlohmann::json& item : list) {
        task::ShardArrival arrival;
        arrival.shard.sourceId = item.at("source").get<std::string>();
        arrival.shard.table = {item.at("schema").get<std::string>(), item.at("table").get<std::string>()};
        arrival.position = item.at("position").get<std::string>();
        arrival.since = std::chrono::system_clock::time_point(std::chrono::seconds(item.value("since", int64_t{0})));
        arrivals.push_back(std::move(arrival));
    }
    return arrivals;
}

std::vector<task::ExecutedShardLock> ShardLockTable::load() {
    const std::string query = "SELECT target_schema, target_table, ddls, arrivals FROM " + qualifiedName_;
    std::vector<task::ExecutedShardLock> locks;
    try {
        std::unique_ptr<sql::Connection> connection = apply::connectDownstream(downstream_);
        std::unique_ptr<sql::Statement> select(connection->createStatement());
        std::unique_ptr<sql::ResultSet> rows(select->executeQuery(query));
        while (rows->next()) {
            task::ExecutedShardLock lock;
            lock.target = {std::string(rows->getString(1)), std::string(rows->getString(2))};
            try {
                lock.ddls = nlohmann::json::parse(std::string(rows->getString(3))).get<std::vector<std::string>>();
                lock.arrivals = arrivalsFromJson(std::string(rows->getString(4)));
            } catch (const std::exception& e) {
                throw Error("the row of " + lock.target.text() + " in " + describe() + " cannot be read (" + e.what() +
                            "); a shard DDL lock that ran would run again: fix or delete the row by hand");
            }
            locks.push_back(std::move(lock));
        }
    } catch (const sql::SQLException& e) {
        if (e.getErrorCode() == server_error::kNoSuchTable || e.getErrorCode() == server_error::kUnknownDatabase) {
            return {};
        }
        throw Error("cannot read the shard DDL locks that ran from " + describe() + " (" + query + "): error " +
                    std::to_string(e.getErrorCode()) + ": " + e.what());
    } catch (const apply::DownstreamError& e) {
        throw Error("cannot read the shard DDL locks that ran from " + describe() + ": " + e.what());
    }
    return locks;
}

void ShardLockTable::record(const task::ExecutedShardLock& lock) {
    const std::string statements[] = {"CREATE SCHEMA IF NOT EXISTS " + apply::quoteName(metaSchema_),
                                      "CREATE TABLE IF NOT EXISTS " + qualifiedName_ + kColumnDefinitions,
                                      "REPLACE INTO " + qualifiedName_ +
                                          " (target_schema, target_table, first_arrival, ddls, arrivals) VALUES (?, ?, "
                                          "?, ?, ?)"};
    std::string current;
    try {
        std::unique_ptr<sql::Connection> connection = apply::connectDownstream(downstream_);
        for (size_t i = 0; i + 1 < std::size(statements); ++i) {
            current = statements[i];
            std::unique_ptr<sql::Statement> run(connection->createStatement());
            run->execute(current);
        }
        current = statements[std::size(statements) - 1];
        std::unique_ptr<sql::PreparedStatement> insert(connection->prepareStatement(current));
        insert->setString(1, lock.target.schema);
        insert->setString(2, lock.target.table);
        insert->setString(3, firstArrival(lock));
        insert->setString(4, nlohmann::json(lock.ddls).dump());
        insert->setString(5, arrivalsJson(lock.arrivals));
        insert->executeUpdate();
    } catch (const std::exception& e) {
        throw Error("cannot keep the shard DDL lock on " + lock.target.text() + " that ran in " + describe() +
                    (current.empty() ? std::string() : " (" + current + ")") + ": " + e.what());
    }
}

void ShardLockTable::remove(const task::ExecutedShardLock& lock) {
    const std::string statement =
        "DELETE FROM " + qualifiedName_ + " WHERE target_schema = ? AND target_table = ? AND first_arrival = ?";
    try {
        std::unique_ptr<sql::Connection> connection = apply::connectDownstream(downstream_);
        std::unique_ptr<sql::PreparedStatement> remove(connection->prepareStatement(statement));
        remove->setString(1, lock.target.schema);
        remove->setString(2, lock.target.table);
        remove->setString(3, firstArrival(lock));
        remove->executeUpdate();
    } catch (const std::exception& e) {
        throw Error("cannot remove the shard DDL lock on " + lock.target.text() + " from " + describe() + " (" +
                    statement + "): " + e.what());
    }
}

}  // namespace syncscope::multisource
