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

constexpr const char* kRan = "ran";
constexpr const char* kWaiting = "waiting";
constexpr const char* kColumn = "column";
constexpr const char* kColumnKeyPrefix = "column:";

constexpr const char* kColumnDefinitions =
    " (\n"
    "  target_schema VARCHAR(64) NOT NULL,\n"
    "  target_table VARCHAR(64) NOT NULL,\n"
    "  first_arrival VARCHAR(255) NOT NULL,\n"
    "  state VARCHAR(16) NOT NULL,\n"
    "  ddls JSON NOT NULL,\n"
    "  arrivals JSON NOT NULL,\n"
    "  waiting_for JSON NOT NULL,\n"
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
    const std::string query =
        "SELECT target_schema, target_table, ddls, arrivals FROM " + qualifiedName_ + " WHERE state = '" + kRan + "'";
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

void ShardLockTable::write(const std::string& state, const TableName& target, const std::string& first,
                           const std::vector<std::string>& ddls, const std::vector<task::ShardArrival>& arrivals,
                           const std::vector<task::ShardTable>& waitingFor) {
    nlohmann::json waiting = nlohmann::json::array();
    for (const task::ShardTable& shard : waitingFor) {
        waiting.push_back({{"source", shard.sourceId}, {"schema", shard.table.schema}, {"table", shard.table.table}});
    }
    const std::string statements[] = {
        "CREATE SCHEMA IF NOT EXISTS " + apply::quoteName(metaSchema_),
        "CREATE TABLE IF NOT EXISTS " + qualifiedName_ + kColumnDefinitions,
        "DELETE FROM " + qualifiedName_ + " WHERE target_schema = ? AND target_table = ? AND state = '" + kWaiting +
            "'",
        "REPLACE INTO " + qualifiedName_ +
            " (target_schema, target_table, first_arrival, state, ddls, arrivals, waiting_for) VALUES (?, ?, ?, ?, ?, "
            "?, ?)"};
    std::string current;
    try {
        std::unique_ptr<sql::Connection> connection = apply::connectDownstream(downstream_);
        for (size_t i = 0; i < 2; ++i) {
            current = statements[i];
            std::unique_ptr<sql::Statement> run(connection->createStatement());
            run->execute(current);
        }
        if (state != kColumn) {
            // A lock's row replaces the waiting lock of its merged table; a column's row leaves it.
            current = statements[2];
            std::unique_ptr<sql::PreparedStatement> clear(connection->prepareStatement(current));
            clear->setString(1, target.schema);
            clear->setString(2, target.table);
            clear->executeUpdate();
        }
        current = statements[3];
        std::unique_ptr<sql::PreparedStatement> insert(connection->prepareStatement(current));
        insert->setString(1, target.schema);
        insert->setString(2, target.table);
        insert->setString(3, first);
        insert->setString(4, state);
        insert->setString(5, nlohmann::json(ddls).dump());
        insert->setString(6, arrivalsJson(arrivals));
        insert->setString(7, waiting.dump());
        insert->executeUpdate();
    } catch (const std::exception& e) {
        throw Error("cannot keep the " + state + " row of the shard merge into " + target.text() + " in " + describe() +
                    (current.empty() ? std::string() : " (" + current + ")") + ": " + e.what());
    }
}

void ShardLockTable::record(const task::ExecutedShardLock& lock) {
    write(kRan, lock.target, firstArrival(lock), lock.ddls, lock.arrivals, {});
}

void ShardLockTable::keepWaiting(const task::ShardLockView& lock) {
    write(kWaiting, lock.target, "", lock.ddls, lock.arrived, lock.waitingFor);
}

std::vector<task::ShardLockStatus> ShardLockTable::loadForStatus() {
    const std::string query = "SELECT target_schema, target_table, state, ddls, arrivals, waiting_for FROM " +
                              qualifiedName_ + " WHERE state <> '" + kColumn + "'";
    std::vector<task::ShardLockStatus> locks;
    try {
        std::unique_ptr<sql::Connection> connection = apply::connectDownstream(downstream_);
        std::unique_ptr<sql::Statement> select(connection->createStatement());
        std::unique_ptr<sql::ResultSet> rows(select->executeQuery(query));
        while (rows->next()) {
            task::ShardLockStatus lock;
            lock.target = {std::string(rows->getString(1)), std::string(rows->getString(2))};
            lock.ranDownstream = std::string(rows->getString(3)) == kRan;
            lock.ddls = nlohmann::json::parse(std::string(rows->getString(4))).get<std::vector<std::string>>();
            for (const task::ShardArrival& arrival : arrivalsFromJson(std::string(rows->getString(5)))) {
                lock.arrived.push_back(
                    {arrival.shard.sourceId, arrival.shard.table, arrival.position,
                     std::chrono::duration_cast<std::chrono::seconds>(arrival.since.time_since_epoch()).count()});
            }
            for (const nlohmann::json& shard : nlohmann::json::parse(std::string(rows->getString(6)))) {
                lock.waitingFor.push_back(
                    {shard.at("source").get<std::string>(),
                     {shard.at("schema").get<std::string>(), shard.at("table").get<std::string>()},
                     "",
                     0});
            }
            lock.since = lock.arrived.empty() ? 0 : lock.arrived.front().since;
            locks.push_back(std::move(lock));
        }
    } catch (const sql::SQLException& e) {
        if (e.getErrorCode() == server_error::kNoSuchTable || e.getErrorCode() == server_error::kUnknownDatabase) {
            return {};
        }
        throw Error("cannot read the shard DDL locks from " + describe() + ": error " +
                    std::to_string(e.getErrorCode()) + ": " + e.what());
    } catch (const apply::DownstreamError& e) {
        throw Error("cannot read the shard DDL locks from " + describe() + ": " + e.what());
    } catch (const std::exception& e) {
        throw Error("cannot read the shard DDL locks from " + describe() + ": a row cannot be read: " + e.what());
    }
    return locks;
}

std::vector<task::AddedShardColumn> ShardLockTable::loadColumns() {
    const std::string query = "SELECT target_schema, target_table, first_arrival, arrivals FROM " + qualifiedName_ +
                              " WHERE state = '" + kColumn + "'";
    std::vector<task::AddedShardColumn> columns;
    try {
        std::unique_ptr<sql::Connection> connection = apply::connectDownstream(downstream_);
        std::unique_ptr<sql::Statement> select(connection->createStatement());
        std::unique_ptr<sql::ResultSet> rows(select->executeQuery(query));
        while (rows->next()) {
            task::AddedShardColumn column;
            column.target = {std::string(rows->getString(1)), std::string(rows->getString(2))};
            column.column = std::string(rows->getString(3)).substr(std::string(kColumnKeyPrefix).size());
            std::vector<task::ShardArrival> shards;
            try {
                shards = arrivalsFromJson(std::string(rows->getString(4)));
            } catch (const std::exception& e) {
                throw Error("the row of column " + column.column + " of " + column.target.text() + " in " + describe() +
                            " cannot be read (" + e.what() + "): fix or delete the row by hand");
            }
            if (shards.empty()) {
                continue;
            }
            column.addedBy = shards.front().shard;
            for (size_t i = 1; i < shards.size(); ++i) {
                column.reachedBy.insert(shards[i].shard);
            }
            columns.push_back(std::move(column));
        }
    } catch (const sql::SQLException& e) {
        if (e.getErrorCode() == server_error::kNoSuchTable || e.getErrorCode() == server_error::kUnknownDatabase) {
            return {};
        }
        throw Error("cannot read the shard columns from " + describe() + ": error " + std::to_string(e.getErrorCode()) +
                    ": " + e.what());
    } catch (const apply::DownstreamError& e) {
        throw Error("cannot read the shard columns from " + describe() + ": " + e.what());
    }
    return columns;
}

void ShardLockTable::keepColumn(const task::AddedShardColumn& column) {
    std::vector<task::ShardArrival> shards{{column.addedBy, "", {}, {}}};
    for (const task::ShardTable& shard : column.reachedBy) {
        shards.push_back({shard, "", {}, {}});
    }
    write(kColumn, column.target, kColumnKeyPrefix + column.column, {}, shards, {});
}

void ShardLockTable::removeColumn(const TableName& target, const std::string& column) {
    deleteRow(target, kColumnKeyPrefix + column);
}

void ShardLockTable::remove(const task::ExecutedShardLock& lock) {
    deleteRow(lock.target, firstArrival(lock));
}

void ShardLockTable::deleteRow(const TableName& target, const std::string& first) {
    const std::string statement =
        "DELETE FROM " + qualifiedName_ + " WHERE target_schema = ? AND target_table = ? AND first_arrival = ?";
    try {
        std::unique_ptr<sql::Connection> connection = apply::connectDownstream(downstream_);
        std::unique_ptr<sql::PreparedStatement> remove(connection->prepareStatement(statement));
        remove->setString(1, target.schema);
        remove->setString(2, target.table);
        remove->setString(3, first);
        remove->executeUpdate();
    } catch (const std::exception& e) {
        throw Error("cannot remove the row " + first + " of " + target.text() + " from " + describe() + " (" +
                    statement + "): " + e.what());
    }
}

}  // namespace syncscope::multisource
