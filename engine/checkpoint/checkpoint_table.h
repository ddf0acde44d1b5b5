// The checkpoint table in the downstream, in DM's shape (pingcap/tiflow dm/syncer/checkpoint.go):
// `<meta-schema>`.`<task>_syncer_checkpoint`, one row per (source id, schema, table), the global row
// with empty schema and table and is_global = 1. Written through MySQL Connector/C++.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "engine/apply/downstream_connection.h"
#include "engine/checkpoint/checkpoint_point.h"

namespace sql {
class Connection;
}

namespace syncscope::checkpoint {

// A failed statement on the checkpoint table: the message names the table, what failed, the
// downstream's code and message, and the SQL (placeholders, never passwords).
class CheckpointTableError : public apply::DownstreamError {
public:
    CheckpointTableError(const std::string& message, int code, std::string sql)
        : apply::DownstreamError(message, code), sql_(std::move(sql)) {}
    // "<table>: <what>: <server message> [<code>] in SQL: <sql>" (the parts that are empty left out).
    static CheckpointTableError about(const std::string& table, const std::string& what, const std::string& sql,
                                      int code, const std::string& serverMessage) {
        std::string message = table + ": " + what;
        if (!serverMessage.empty()) {
            message += ": " + serverMessage + " [" + std::to_string(code) + "]";
        }
        if (!sql.empty()) {
            message += " in SQL: " + sql;
        }
        return CheckpointTableError(message, code, sql);
    }
    const std::string& sql() const { return sql_; }

private:
    std::string sql_;
};

// Whether a server error says that a meta table, or its schema, is not there (nothing to read or delete).
bool isMissingTable(int serverCode);

// DELETE of every row of one source (`id`, DM's column) from a meta table, as --remove-meta does; a missing
// table is not an error. Other failures are thrown as sql::SQLException for the caller to name.
void deleteSourceRows(sql::Connection& connection, const std::string& qualifiedTable, const std::string& sourceId);

class CheckpointTable {
public:
    // `connection` stays owned by the caller, is used by one thread at a time and is dedicated to
    // checkpoints (flush switches autocommit off for its transaction and back on).
    CheckpointTable(sql::Connection& connection, std::string metaSchema, std::string taskName);

    const std::string& metaSchema() const { return metaSchema_; }
    std::string tableName() const { return checkpointTableName(taskName_); }
    // `meta`.`task_syncer_checkpoint` with backticks doubled inside the names.
    const std::string& qualifiedName() const { return qualifiedName_; }

    // CREATE SCHEMA / CREATE TABLE IF NOT EXISTS with DM's exact column definitions.
    void ensureTable();

    // Every row of `sourceId`. A missing table is an empty checkpoint. Table rows without a global
    // row throw CheckpointTableError: where to resume is unknown, and guessing could skip rows.
    PersistedCheckpoint load(const std::string& sourceId);

    // Rows per INSERT: a flush of up to this many rows (tables + global) is one statement; more
    // tables take several statements in one transaction. 11 values a row keeps it far below 65,535.
    static constexpr size_t kRowsPerStatement = 512;

    // Writes the table rows, then the global row (with the exit-safe point), in ONE transaction (one
    // multi-row statement up to kRowsPerStatement rows), by INSERT ... ON DUPLICATE KEY UPDATE as DM
    // does (create_time kept). Values are bound. On any
    // failure the transaction is rolled back, so the previous checkpoint stays whole.
    // Table rows are written with table_info "null" (DM then reads the structure from downstream).
    void flush(const std::string& sourceId, const std::vector<TablePoint>& tablePoints,
               const binlog::Location& globalPoint, const binlog::Location& exitSafePoint);
    // `alsoInTransaction` (when set) runs first inside the flush's transaction: what must be persisted
    // exactly with these points (the online schema changes' rows).
    void flush(const std::string& sourceId, const FlushPlan& plan, const std::function<void()>& alsoInTransaction = {});

    // Rewrites only the global row: the already persisted global point with a new exit-safe point.
    void flushExitSafePoint(const std::string& sourceId, const binlog::Location& persistedGlobalPoint,
                            const binlog::Location& exitSafePoint);

    // The DBA's resume-from: every row of `sourceId` replaced by one global row, in ONE transaction (a
    // failure leaves the previous checkpoint whole).
    void replaceWithGlobalPoint(const std::string& sourceId, const binlog::Location& globalPoint,
                                const binlog::Location& exitSafePoint);

    // Deletes every row of `sourceId` (DM's --remove-meta); a missing table is not an error.
    void removeMeta(const std::string& sourceId);

private:
    struct Row;
    void writeRows(std::span<const Row> rows);
    void writeFlushRows(std::span<const Row> rows);
    void inOneTransaction(const std::string& what, const std::function<void()>& statements);
    void checkSourceId(const std::string& sourceId) const;
    [[noreturn]] void fail(const std::string& what, const std::string& sql, int code,
                           const std::string& serverMessage) const;

    sql::Connection& connection_;
    std::string metaSchema_;
    std::string taskName_;
    std::string qualifiedName_;
};

}  // namespace syncscope::checkpoint
