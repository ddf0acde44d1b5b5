#include "engine/load/loader_checkpoint.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>

#include "engine/apply/error_class.h"
#include "engine/load/literal_row_reader.h"
#include "engine/load/load_error.h"

namespace syncscope::load {

namespace {

constexpr int kNoSuchTable = 1146;      // ER_NO_SUCH_TABLE
constexpr int kUnknownDatabase = 1049;  // ER_BAD_DB_ERROR
constexpr const char* kTableSuffix = "_loader_checkpoint";

// DM's columns first, unchanged (DM reads them by name); SyncScope's after them.
constexpr const char* kColumnDefinitions =
    " (\n"
    "  id CHAR(32) NOT NULL,\n"
    "  filename VARCHAR(255) NOT NULL,\n"
    "  cp_schema VARCHAR(128) NOT NULL,\n"
    "  cp_table VARCHAR(128) NOT NULL,\n"
    "  `offset` BIGINT NOT NULL,\n"
    "  end_pos BIGINT NOT NULL,\n"
    "  create_time timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,\n"
    "  update_time timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,\n"
    "  target_schema VARCHAR(128) NOT NULL DEFAULT '',\n"
    "  target_table VARCHAR(128) NOT NULL DEFAULT '',\n"
    "  chunk_key TEXT,\n"
    "  lower_bound LONGTEXT,\n"
    "  upper_bound LONGTEXT,\n"
    "  estimated_rows BIGINT NOT NULL DEFAULT 0,\n"
    "  rows_done BIGINT NOT NULL DEFAULT 0,\n"
    "  done BOOLEAN NOT NULL DEFAULT 0,\n"
    "  loaded_binlog_name VARCHAR(128) NOT NULL DEFAULT '',\n"
    "  loaded_binlog_pos BIGINT NOT NULL DEFAULT 0,\n"
    "  loaded_binlog_gtid TEXT,\n"
    "  UNIQUE KEY uk_id_f (id, filename)\n"
    ")";

std::string quote(const std::string& name) {
    std::string text = "`";
    for (char c : name) {
        text += c;
        if (c == '`') {
            text += '`';
        }
    }
    return text + "`";
}

std::string boundJson(const std::optional<KeyBound>& bound) {
    return bound ? nlohmann::json(*bound).dump() : std::string("null");
}

std::optional<KeyBound> boundFrom(const std::string& text) {
    nlohmann::json json = nlohmann::json::parse(text);
    if (json.is_null()) {
        return std::nullopt;
    }
    return json.get<KeyBound>();
}

std::string columnText(const sql::ResultSet& result, uint32_t column) {
    return result.isNull(column) ? std::string() : std::string(result.getString(column));
}

}  // namespace

std::string loaderCheckpointTableName(const std::string& task) {
    return task + kTableSuffix;
}

LoaderCheckpoint::LoaderCheckpoint(sql::Connection& connection, std::string metaSchema, std::string taskName)
    : connection_(connection),
      metaSchema_(std::move(metaSchema)),
      taskName_(std::move(taskName)),
      qualifiedName_(quote(metaSchema_) + "." + quote(loaderCheckpointTableName(taskName_))) {}

void LoaderCheckpoint::fail(const std::string& what, const std::string& sql, int code,
                            const std::string& message) const {
    throw LoadError("loader checkpoint " + qualifiedName_ + ": " + what + " failed: " + message + " [" +
                        std::to_string(code) + "] (" + sql + ")",
                    apply::classifyDownstreamError(code) == apply::ErrorClass::Retryable);
}

void LoaderCheckpoint::ensureTable() {
    std::string sql;
    try {
        std::unique_ptr<sql::Statement> statement(connection_.createStatement());
        sql = "CREATE DATABASE IF NOT EXISTS " + quote(metaSchema_);
        statement->execute(sql);
        sql = "CREATE TABLE IF NOT EXISTS " + qualifiedName_ + kColumnDefinitions;
        statement->execute(sql);
    } catch (const sql::SQLException& e) {
        fail("creating the table", sql, e.getErrorCode(), e.what());
    }
}

std::vector<LoadChunk> LoaderCheckpoint::load(const std::string& sourceId) {
    std::string sql =
        "SELECT filename, cp_schema, cp_table, target_schema, target_table, chunk_key, lower_bound, "
        "upper_bound, estimated_rows, end_pos, done, rows_done, `offset`, loaded_binlog_name, "
        "loaded_binlog_pos, loaded_binlog_gtid FROM " +
        qualifiedName_ + " WHERE id = ? ORDER BY filename";
    std::vector<LoadChunk> chunks;
    try {
        std::unique_ptr<sql::PreparedStatement> statement(connection_.prepareStatement(sql));
        statement->setString(1, sourceId);
        std::unique_ptr<sql::ResultSet> result(statement->executeQuery());
        while (result->next()) {
            LoadChunk chunk;
            chunk.name = columnText(*result, 1);
            chunk.upstream = {columnText(*result, 2), columnText(*result, 3)};
            chunk.target = {columnText(*result, 4), columnText(*result, 5)};
            chunk.keyColumns = nlohmann::json::parse(columnText(*result, 6)).get<std::vector<std::string>>();
            chunk.lower = boundFrom(columnText(*result, 7));
            chunk.upper = boundFrom(columnText(*result, 8));
            chunk.estimatedRows = result->getUInt64(9);
            chunk.done = result->getBoolean(11);
            chunk.estimatedBytes = chunk.done ? 0 : result->getUInt64(10);
            chunk.rowsDone = result->getUInt64(12);
            chunk.bytesDone = result->getUInt64(13);
            if (chunk.done) {
                chunk.loadedAt = binlog::Location::fromParts(columnText(*result, 14), result->getUInt64(15),
                                                             columnText(*result, 16));
            }
            chunks.push_back(std::move(chunk));
        }
    } catch (const sql::SQLException& e) {
        if (e.getErrorCode() == kNoSuchTable || e.getErrorCode() == kUnknownDatabase) {
            return {};
        }
        fail("reading the plan", sql, e.getErrorCode(), e.what());
    } catch (const nlohmann::json::exception& e) {
        throw LoadError("loader checkpoint " + qualifiedName_ + ": a chunk's key or bound is not valid JSON (" +
                        e.what() + "); remove the plan with --remove-meta and start the load again");
    }
    return chunks;
}

void LoaderCheckpoint::inTransaction(const std::string& what, const std::function<void(std::string& sql)>& body) {
    auto rollBack = [this] {
        try {
            connection_.rollback();
            connection_.setAutoCommit(true);
        } catch (const sql::SQLException&) {
            // The connection is gone; the transaction died with it.
        }
    };
    std::string sql;
    try {
        connection_.setAutoCommit(false);
        body(sql);
        connection_.commit();
        connection_.setAutoCommit(true);
    } catch (const sql::SQLException& e) {
        rollBack();
        fail(what, sql, e.getErrorCode(), e.what());
    } catch (...) {
        rollBack();
        throw;
    }
}

void LoaderCheckpoint::insertChunks(const std::string& sourceId, std::span<const LoadChunk> chunks, std::string& sql) {
    sql = "INSERT INTO " + qualifiedName_ +
          " (id, filename, cp_schema, cp_table, `offset`, end_pos, target_schema, target_table, chunk_key,"
          " lower_bound, upper_bound, estimated_rows) VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?)";
    std::unique_ptr<sql::PreparedStatement> statement(connection_.prepareStatement(sql));
    for (const LoadChunk& chunk : chunks) {
        statement->setString(1, sourceId);
        statement->setString(2, chunk.name);
        statement->setString(3, chunk.upstream.schema);
        statement->setString(4, chunk.upstream.table);
        // end_pos above offset marks the chunk pending for DM too; done sets both to the bytes loaded.
        statement->setUInt64(5, std::max<uint64_t>(chunk.estimatedBytes, 1));
        statement->setString(6, chunk.target.schema);
        statement->setString(7, chunk.target.table);
        statement->setString(8, nlohmann::json(chunk.keyColumns).dump());
        statement->setString(9, boundJson(chunk.lower));
        statement->setString(10, boundJson(chunk.upper));
        statement->setUInt64(11, chunk.estimatedRows);
        statement->executeUpdate();
    }
}

void LoaderCheckpoint::savePlan(const std::string& sourceId, const std::vector<LoadChunk>& chunks) {
    inTransaction("saving the plan", [&](std::string& sql) { insertChunks(sourceId, chunks, sql); });
}

void LoaderCheckpoint::refinePlan(const std::string& sourceId, const std::vector<LoadChunk>& walked) {
    if (walked.empty()) {
        return;
    }
    const LoadChunk& first = walked.front();
    inTransaction("saving the walked chunks of " + first.upstream.quoted(), [&](std::string& sql) {
        sql = "UPDATE " + qualifiedName_ +
              " SET upper_bound = ?, estimated_rows = ?, end_pos = ? WHERE id = ? AND filename = ? AND done = 0 AND "
              "lower_bound = 'null' AND upper_bound = 'null'";
        std::unique_ptr<sql::PreparedStatement> statement(connection_.prepareStatement(sql));
        statement->setString(1, boundJson(first.upper));
        statement->setUInt64(2, first.estimatedRows);
        statement->setUInt64(3, std::max<uint64_t>(first.estimatedBytes, 1));
        statement->setString(4, sourceId);
        statement->setString(5, first.name);
        if (statement->executeUpdate() != 1) {
            throw LoadError("loader checkpoint " + qualifiedName_ + ": chunk " + first.name +
                            " is no longer one pending chunk of the whole table, so its walked chunks were not "
                            "saved and nothing was copied from it. Another run of this task has changed the plan: "
                            "make sure only one runs, then start the task again (it continues from the plan as "
                            "saved)");
        }
        insertChunks(sourceId, std::span<const LoadChunk>(walked).subspan(1), sql);
    });
}

std::string LoaderCheckpoint::markDoneStatement(const std::string& sourceId, const LoadChunk& chunk) const {
    std::string bytes = std::to_string(chunk.bytesDone);
    return "UPDATE " + qualifiedName_ + " SET `offset` = " + bytes + ", end_pos = " + bytes +
           ", rows_done = " + std::to_string(chunk.rowsDone) +
           ", done = 1, loaded_binlog_name = " + sqlString(chunk.loadedAt.position().file()) +
           ", loaded_binlog_pos = " + std::to_string(chunk.loadedAt.position().offset()) +
           ", loaded_binlog_gtid = " + sqlString(chunk.loadedAt.gtidText()) + " WHERE id = " + sqlString(sourceId) +
           " AND filename = " + sqlString(chunk.name);
}

void LoaderCheckpoint::remove(const std::string& sourceId) {
    std::string sql = "DELETE FROM " + qualifiedName_ + " WHERE id = ?";
    try {
        std::unique_ptr<sql::PreparedStatement> statement(connection_.prepareStatement(sql));
        statement->setString(1, sourceId);
        statement->executeUpdate();
    } catch (const sql::SQLException& e) {
        if (e.getErrorCode() == kNoSuchTable || e.getErrorCode() == kUnknownDatabase) {
            return;
        }
        fail("removing the plan", sql, e.getErrorCode(), e.what());
    }
}

}  // namespace syncscope::load
