#include "engine/checkpoint/checkpoint_table.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include <algorithm>
#include <memory>

#include "engine/apply/quoted_name.h"
#include "engine/common/server_errors.h"

namespace syncscope::checkpoint {

namespace {

using server_error::kNoSuchTable;
using server_error::kUnknownDatabase;

// DM's column definitions, unchanged, so that DM and SyncScope can read each other's tables.
constexpr const char* kColumnDefinitions =
    " (\n"
    "  id VARCHAR(32) NOT NULL,\n"
    "  cp_schema VARCHAR(128) NOT NULL,\n"
    "  cp_table VARCHAR(128) NOT NULL,\n"
    "  binlog_name VARCHAR(128),\n"
    "  binlog_pos INT UNSIGNED,\n"
    "  binlog_gtid TEXT,\n"
    "  exit_safe_binlog_name VARCHAR(128) DEFAULT '',\n"
    "  exit_safe_binlog_pos INT UNSIGNED DEFAULT 0,\n"
    "  exit_safe_binlog_gtid TEXT,\n"
    "  table_info JSON NOT NULL,\n"
    "  is_global BOOLEAN,\n"
    "  create_time timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,\n"
    "  update_time timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,\n"
    "  UNIQUE KEY uk_id_schema_table (id, cp_schema, cp_table)\n"
    ")";

// INSERT ... ON DUPLICATE KEY UPDATE rather than REPLACE keeps create_time, as DM does.
constexpr const char* kUpsertColumns =
    " (id, cp_schema, cp_table, binlog_name, binlog_pos, binlog_gtid, exit_safe_binlog_name, exit_safe_binlog_pos,"
    " exit_safe_binlog_gtid, table_info, is_global) VALUES ";
constexpr const char* kUpsertRow = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
constexpr const char* kUpsertAssignments =
    " ON DUPLICATE KEY UPDATE binlog_name = VALUES(binlog_name), binlog_pos = VALUES(binlog_pos),"
    " binlog_gtid = VALUES(binlog_gtid), exit_safe_binlog_name = VALUES(exit_safe_binlog_name),"
    " exit_safe_binlog_pos = VALUES(exit_safe_binlog_pos), exit_safe_binlog_gtid = VALUES(exit_safe_binlog_gtid),"
    " table_info = VALUES(table_info), is_global = VALUES(is_global)";

constexpr const char* kLoadColumns =
    "SELECT cp_schema, cp_table, binlog_name, binlog_pos, binlog_gtid, exit_safe_binlog_name, exit_safe_binlog_pos,"
    " exit_safe_binlog_gtid, is_global FROM ";

std::string stringOrEmpty(const sql::ResultSet& result, uint32_t column) {
    return result.isNull(column) ? std::string() : std::string(result.getString(column));
}

uint64_t numberOrZero(const sql::ResultSet& result, uint32_t column) {
    return result.isNull(column) ? 0 : result.getUInt64(column);
}

}  // namespace

struct CheckpointTable::Row {
    std::string sourceId;
    std::string schema;
    std::string table;
    const binlog::Location* location = nullptr;
    const binlog::Location* exitSafePoint = nullptr;  // global row only
    bool isGlobal = false;

    std::string where() const;  // "global row", "row of table db.t"
};

bool isMissingTable(int serverCode) {
    return serverCode == kNoSuchTable || serverCode == kUnknownDatabase;
}

void deleteSourceRows(sql::Connection& connection, const std::string& qualifiedTable, const std::string& sourceId) {
    try {
        std::unique_ptr<sql::PreparedStatement> remove(
            connection.prepareStatement("DELETE FROM " + qualifiedTable + " WHERE id = ?"));
        remove->setString(1, sourceId);
        remove->executeUpdate();
    } catch (const sql::SQLException& e) {
        if (!isMissingTable(e.getErrorCode())) {
            throw;
        }
    }
}

CheckpointTable::CheckpointTable(sql::Connection& connection, std::string metaSchema, std::string taskName)
    : connection_(connection),
      metaSchema_(std::move(metaSchema)),
      taskName_(std::move(taskName)),
      qualifiedName_(apply::quoteName(metaSchema_) + "." + apply::quoteName(checkpointTableName(taskName_))) {}

void CheckpointTable::fail(const std::string& what, const std::string& sql, int code,
                           const std::string& serverMessage) const {
    throw CheckpointTableError::about("checkpoint table " + qualifiedName_, what, sql, code, serverMessage);
}

void CheckpointTable::checkSourceId(const std::string& sourceId) const {
    if (sourceId.empty() || sourceId.size() > kMaxSourceIdLength) {
        fail("source id '" + sourceId + "' must have 1 to " + std::to_string(kMaxSourceIdLength) +
                 " characters (DM's id column is VARCHAR(32))",
             {}, 0, {});
    }
}

void CheckpointTable::ensureTable() {
    const std::string createSchema = "CREATE SCHEMA IF NOT EXISTS " + apply::quoteName(metaSchema_);
    const std::string createTable = "CREATE TABLE IF NOT EXISTS " + qualifiedName_ + kColumnDefinitions;
    for (const std::string* statement : {&createSchema, &createTable}) {
        try {
            std::unique_ptr<sql::Statement> run(connection_.createStatement());
            run->execute(*statement);
        } catch (const sql::SQLException& e) {
            fail("cannot create the checkpoint table", *statement, e.getErrorCode(), e.what());
        }
    }
}

PersistedCheckpoint CheckpointTable::load(const std::string& sourceId) {
    checkSourceId(sourceId);
    const std::string query = std::string(kLoadColumns) + qualifiedName_ + " WHERE id = ?";
    PersistedCheckpoint checkpoint;
    try {
        std::unique_ptr<sql::PreparedStatement> select(connection_.prepareStatement(query));
        select->setString(1, sourceId);
        std::unique_ptr<sql::ResultSet> rows(select->executeQuery());
        while (rows->next()) {
            std::string schema = stringOrEmpty(*rows, 1);
            std::string table = stringOrEmpty(*rows, 2);
            bool isGlobal = !rows->isNull(9) && rows->getBoolean(9);
            std::string where = isGlobal ? std::string("global row") : "row of table " + schema + "." + table;
            binlog::Location location;
            try {
                location = binlog::Location::fromParts(stringOrEmpty(*rows, 3), numberOrZero(*rows, 4),
                                                       stringOrEmpty(*rows, 5));
            } catch (const binlog::PositionError& e) {
                fail("source '" + sourceId + "', " + where + ": unreadable point: " + e.what(), query, 0, {});
            }
            if (!isGlobal) {
                checkpoint.tablePoints.push_back({{schema, table}, std::move(location)});
                continue;
            }
            checkpoint.hasGlobalRow = true;
            checkpoint.globalPoint = std::move(location);
            try {
                checkpoint.exitSafePoint = binlog::Location::fromParts(stringOrEmpty(*rows, 6), numberOrZero(*rows, 7),
                                                                       stringOrEmpty(*rows, 8));
            } catch (const binlog::PositionError& e) {
                fail("source '" + sourceId + "', global row: unreadable exit-safe point: " + e.what(), query, 0, {});
            }
        }
    } catch (const sql::SQLException& e) {
        if (isMissingTable(e.getErrorCode())) {
            return {};
        }
        fail("cannot load the checkpoint of source '" + sourceId + "'", query, e.getErrorCode(), e.what());
    }
    if (!checkpoint.hasGlobalRow && !checkpoint.tablePoints.empty()) {
        fail("source '" + sourceId + "' has " + std::to_string(checkpoint.tablePoints.size()) +
                 " table rows but no global row (is_global = 1): where a resume starts is unknown. Remove this "
                 "source's rows (--remove-meta) and start from a known position, or restore the global row",
             query, 0, {});
    }
    return checkpoint;
}

std::string CheckpointTable::Row::where() const {
    return isGlobal ? std::string("global row") : "row of table " + schema + "." + table;
}

void CheckpointTable::writeRows(std::span<const Row> rows) {
    std::string statement = "INSERT INTO " + qualifiedName_ + kUpsertColumns;
    for (size_t i = 0; i < rows.size(); ++i) {
        statement += i == 0 ? kUpsertRow : std::string(", ") + kUpsertRow;
    }
    statement += kUpsertAssignments;
    static const binlog::Location kNoExitSafePoint;
    for (const Row& row : rows) {
        const binlog::Location& exitSafe = row.exitSafePoint != nullptr ? *row.exitSafePoint : kNoExitSafePoint;
        for (const binlog::Location* point : {row.location, &exitSafe}) {
            if (point->position().offset() > kMaxStoredBinlogOffset) {
                fail("source '" + row.sourceId + "', " + row.where() + ": binlog offset " +
                         point->position().toString() + " does not fit DM's INT UNSIGNED column",
                     statement, 0, {});
            }
        }
    }
    try {
        std::unique_ptr<sql::PreparedStatement> upsert(connection_.prepareStatement(statement));
        unsigned int index = 0;
        for (const Row& row : rows) {
            const binlog::Location& location = *row.location;
            const binlog::Location& exitSafe = row.exitSafePoint != nullptr ? *row.exitSafePoint : kNoExitSafePoint;
            upsert->setString(++index, row.sourceId);
            upsert->setString(++index, row.isGlobal ? std::string() : row.schema);
            upsert->setString(++index, row.isGlobal ? std::string() : row.table);
            upsert->setString(++index, location.position().file());
            upsert->setUInt(++index, static_cast<uint32_t>(location.position().offset()));
            upsert->setString(++index, location.gtidText());
            upsert->setString(++index, exitSafe.position().file());
            upsert->setUInt(++index, static_cast<uint32_t>(exitSafe.position().offset()));
            upsert->setString(++index, exitSafe.gtidText());
            upsert->setString(++index, std::string(kNoTableInfo));
            upsert->setBoolean(++index, row.isGlobal);
        }
        upsert->executeUpdate();
    } catch (const sql::SQLException& e) {
        const Row& last = rows.back();
        std::string what = rows.size() == 1
                               ? "the " + last.where()
                               : std::to_string(rows.size()) + " rows (the last: the " + last.where() + ")";
        fail("cannot write " + what + " of source '" + last.sourceId + "' at " + last.location->toString(), statement,
             e.getErrorCode(), e.what());
    }
}

void CheckpointTable::flush(const std::string& sourceId, const std::vector<TablePoint>& tablePoints,
                            const binlog::Location& globalPoint, const binlog::Location& exitSafePoint) {
    FlushPlan plan{globalPoint, exitSafePoint, tablePoints, {}};
    flush(sourceId, plan);
}

void CheckpointTable::writeFlushRows(std::span<const Row> rows) {
    for (size_t begin = 0; begin < rows.size(); begin += kRowsPerStatement) {
        writeRows(rows.subspan(begin, std::min(kRowsPerStatement, rows.size() - begin)));
    }
}

// Autocommit off makes the statements one transaction; any failure rolls all of them back.
void CheckpointTable::inOneTransaction(const std::string& what, const std::function<void()>& statements) {
    try {
        connection_.setAutoCommit(false);
    } catch (const sql::SQLException& e) {
        fail("cannot start the transaction of " + what, "SET autocommit = 0", e.getErrorCode(), e.what());
    }
    auto restoreAutocommit = [this] {
        try {
            connection_.setAutoCommit(true);
        } catch (const sql::SQLException&) {
            // The connection is broken; the next statement reports that with its own context.
        }
    };
    try {
        statements();
        try {
            connection_.commit();
        } catch (const sql::SQLException& e) {
            fail("cannot commit " + what, "COMMIT", e.getErrorCode(), e.what());
        }
    } catch (...) {
        try {
            connection_.rollback();
        } catch (const sql::SQLException&) {
            // A lost connection rolls back on the server by itself.
        }
        restoreAutocommit();
        throw;
    }
    restoreAutocommit();
}

void CheckpointTable::replaceWithGlobalPoint(const std::string& sourceId, const binlog::Location& globalPoint,
                                             const binlog::Location& exitSafePoint) {
    checkSourceId(sourceId);
    const std::string statement = "DELETE FROM " + qualifiedName_ + " WHERE id = ?";
    inOneTransaction("moving source '" + sourceId + "' to " + globalPoint.toString(), [&] {
        try {
            std::unique_ptr<sql::PreparedStatement> remove(connection_.prepareStatement(statement));
            remove->setString(1, sourceId);
            remove->executeUpdate();
        } catch (const sql::SQLException& e) {
            fail("cannot remove the checkpoint of source '" + sourceId + "'", statement, e.getErrorCode(), e.what());
        }
        Row global{sourceId, {}, {}, &globalPoint, &exitSafePoint, true};
        writeRows(std::span<const Row>(&global, 1));
    });
}

void CheckpointTable::flush(const std::string& sourceId, const FlushPlan& plan,
                            const std::function<void()>& alsoInTransaction) {
    checkSourceId(sourceId);
    std::vector<Row> rows;
    rows.reserve(plan.tablePoints.size() + 1);
    for (const TablePoint& point : plan.tablePoints) {
        rows.push_back(Row{sourceId, point.table.schema, point.table.table, &point.location, nullptr, false});
    }
    // The global row last: a reader that sees it sees every table row of the same flush.
    rows.push_back(Row{sourceId, {}, {}, &plan.globalPoint, &plan.exitSafePoint, true});
    std::span<const Row> all(rows);
    if (rows.size() <= kRowsPerStatement && !alsoInTransaction) {
        writeRows(all);  // one statement: atomic by itself, one round trip (a flush a second stays cheap)
        return;
    }
    inOneTransaction("the flush of source '" + sourceId + "' at " + plan.globalPoint.toString(), [&] {
        if (alsoInTransaction) {
            alsoInTransaction();
        }
        writeFlushRows(all);
    });
}

void CheckpointTable::flushExitSafePoint(const std::string& sourceId, const binlog::Location& persistedGlobalPoint,
                                         const binlog::Location& exitSafePoint) {
    checkSourceId(sourceId);
    Row global{sourceId, {}, {}, &persistedGlobalPoint, &exitSafePoint, true};
    writeRows(std::span<const Row>(&global, 1));
}

void CheckpointTable::removeMeta(const std::string& sourceId) {
    checkSourceId(sourceId);
    try {
        deleteSourceRows(connection_, qualifiedName_, sourceId);
    } catch (const sql::SQLException& e) {
        fail("cannot remove the checkpoint of source '" + sourceId + "'",
             "DELETE FROM " + qualifiedName_ + " WHERE id = ?", e.getErrorCode(), e.what());
    }
}

}  // namespace syncscope::checkpoint
