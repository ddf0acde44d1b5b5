#include "engine/inspect/checkpoint_table_reader.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include <algorithm>
#include <memory>
#include <set>

#include "engine/apply/quoted_name.h"
#include "engine/checkpoint/checkpoint_point.h"

namespace syncscope::inspect {

namespace {

// Columns without which a table is not a checkpoint table at all.
const std::vector<std::string> kRequiredColumns{"id",          "cp_schema",  "cp_table",
                                                "binlog_name", "binlog_pos", "is_global"};
// Columns of later DM versions; read as NULL when absent.
const std::vector<std::string> kOptionalColumns{
    "binlog_gtid", "exit_safe_binlog_name", "exit_safe_binlog_pos", "exit_safe_binlog_gtid",
    "table_info",  "create_time",           "update_time"};

std::string text(const sql::ResultSet& rows, const std::string& column) {
    return rows.isNull(column) ? std::string() : std::string(rows.getString(column));
}

std::optional<uint64_t> number(const sql::ResultSet& rows, const std::string& column) {
    if (rows.isNull(column)) {
        return std::nullopt;
    }
    return rows.getUInt64(column);
}

[[noreturn]] void failQuery(const std::string& what, const std::string& sql, const sql::SQLException& e) {
    throw apply::DownstreamError(what + ": " + e.what() + " [" + std::to_string(e.getErrorCode()) + "] in SQL: " + sql,
                                 e.getErrorCode());
}

void run(sql::Connection& connection, const std::string& sql) {
    try {
        std::unique_ptr<sql::Statement> statement(connection.createStatement());
        statement->execute(sql);
    } catch (const sql::SQLException& e) {
        failQuery("checkpoint inspection", sql, e);
    }
}

}  // namespace

std::vector<std::string> CheckpointTableReader::checkpointTables(const std::string& metaSchema,
                                                                 const std::string& task) {
    const std::string schemaQuery = "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?";
    const std::string tableQuery =
        "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME LIKE ? "
        "ORDER BY TABLE_NAME";
    std::vector<std::string> names;
    try {
        std::unique_ptr<sql::PreparedStatement> schema(connection_.prepareStatement(schemaQuery));
        schema->setString(1, metaSchema);
        std::unique_ptr<sql::ResultSet> found(schema->executeQuery());
        if (!found->next()) {
            throw apply::DownstreamError("the target has no meta schema " + apply::quoteName(metaSchema) +
                                             " (check --meta-schema: DM's default is dm_meta)",
                                         0);
        }
        std::unique_ptr<sql::PreparedStatement> tables(connection_.prepareStatement(tableQuery));
        tables->setString(1, metaSchema);
        // LIKE with _ escaped: the suffix is matched literally.
        tables->setString(2, "%\\_syncer\\_checkpoint");
        std::unique_ptr<sql::ResultSet> rows(tables->executeQuery());
        while (rows->next()) {
            names.emplace_back(rows->getString(1));
        }
    } catch (const sql::SQLException& e) {
        failQuery("cannot list the checkpoint tables of " + apply::quoteName(metaSchema), tableQuery, e);
    }
    if (!task.empty()) {
        std::string wanted = checkpoint::checkpointTableName(task);
        if (std::find(names.begin(), names.end(), wanted) == names.end()) {
            throw apply::DownstreamError("the target has no checkpoint table " + apply::quoteName(metaSchema) + "." +
                                             apply::quoteName(wanted) + " (check --task and --meta-schema)",
                                         0);
        }
        return {wanted};
    }
    return names;
}

CheckpointTableRows CheckpointTableReader::readTable(const std::string& metaSchema, const std::string& tableName) {
    CheckpointTableRows table;
    table.metaSchema = metaSchema;
    table.tableName = tableName;
    table.taskName = tableName.substr(0, tableName.size() - checkpoint::kCheckpointTableSuffix.size());

    const std::string columnQuery =
        "SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?";
    std::set<std::string> present;
    try {
        std::unique_ptr<sql::PreparedStatement> columns(connection_.prepareStatement(columnQuery));
        columns->setString(1, metaSchema);
        columns->setString(2, tableName);
        std::unique_ptr<sql::ResultSet> rows(columns->executeQuery());
        while (rows->next()) {
            std::string name(rows->getString(1));
            std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
            present.insert(name);
        }
    } catch (const sql::SQLException& e) {
        failQuery("cannot read the columns of " + apply::quoteName(tableName), columnQuery, e);
    }

    std::string select = "SELECT ";
    for (const auto& column : kRequiredColumns) {
        if (present.count(column) == 0) {
            table.problem = "not a checkpoint table: column " + column + " is missing";
            return table;
        }
        select += column + ", ";
    }
    for (const auto& column : kOptionalColumns) {
        // Timestamps as text so that every server and driver gives the same form.
        bool isTime = column == "create_time" || column == "update_time";
        if (present.count(column) == 0) {
            select += "NULL AS " + column + ", ";
        } else {
            select += isTime ? "CAST(" + column + " AS CHAR) AS " + column + ", " : column + ", ";
        }
    }
    select.resize(select.size() - 2);
    select += " FROM " + apply::quoteName(metaSchema) + "." + apply::quoteName(tableName) +
              " ORDER BY id, is_global DESC, cp_schema, cp_table";

    try {
        std::unique_ptr<sql::Statement> statement(connection_.createStatement());
        std::unique_ptr<sql::ResultSet> rows(statement->executeQuery(select));
        while (rows->next()) {
            CheckpointRow row;
            row.sourceId = text(*rows, "id");
            row.schema = text(*rows, "cp_schema");
            row.table = text(*rows, "cp_table");
            row.binlogName = text(*rows, "binlog_name");
            row.binlogPos = number(*rows, "binlog_pos");
            row.binlogGtid = text(*rows, "binlog_gtid");
            row.exitSafeBinlogName = text(*rows, "exit_safe_binlog_name");
            row.exitSafeBinlogPos = number(*rows, "exit_safe_binlog_pos");
            row.exitSafeBinlogGtid = text(*rows, "exit_safe_binlog_gtid");
            row.tableInfo = text(*rows, "table_info");
            row.isGlobal = !rows->isNull("is_global") && rows->getBoolean("is_global");
            row.createTime = text(*rows, "create_time");
            row.updateTime = text(*rows, "update_time");
            table.rows.push_back(std::move(row));
        }
    } catch (const sql::SQLException& e) {
        failQuery("cannot read checkpoint table " + apply::quoteName(tableName), select, e);
    }
    return table;
}

std::vector<CheckpointTableRows> CheckpointTableReader::read(const std::string& metaSchema, const std::string& task) {
    // One read-only transaction: a consistent snapshot of every table, and no write can slip in.
    run(connection_, "START TRANSACTION READ ONLY");
    std::vector<CheckpointTableRows> tables;
    try {
        for (const auto& name : checkpointTables(metaSchema, task)) {
            tables.push_back(readTable(metaSchema, name));
        }
    } catch (...) {
        try {
            run(connection_, "ROLLBACK");
        } catch (const Error&) {
            // The first error is the one worth reporting.
        }
        throw;
    }
    run(connection_, "COMMIT");
    return tables;
}

}  // namespace syncscope::inspect
