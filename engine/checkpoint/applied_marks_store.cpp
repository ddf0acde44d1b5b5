#include "engine/checkpoint/applied_marks_store.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include <memory>

#include "engine/checkpoint/checkpoint_table.h"

namespace syncscope::checkpoint {

AppliedMarksStore::AppliedMarksStore(sql::Connection& connection, std::string metaSchema, std::string taskName)
    : connection_(connection), table_{std::move(metaSchema), std::move(taskName)} {}

void AppliedMarksStore::fail(const std::string& what, const std::string& sql, int code,
                             const std::string& serverMessage) const {
    throw CheckpointTableError::about("applied marks table " + table_.qualifiedName(), what, sql, code, serverMessage);
}

void AppliedMarksStore::ensureTable() {
    const std::string create = table_.createSql();
    try {
        std::unique_ptr<sql::Statement> run(connection_.createStatement());
        run->execute(create);
    } catch (const sql::SQLException& e) {
        fail("cannot create it", create, e.getErrorCode(), e.what());
    }
}

apply::AppliedMarks AppliedMarksStore::load(const std::string& sourceId) {
    const std::string query = table_.selectSql();
    apply::AppliedMarks marks;
    try {
        std::unique_ptr<sql::PreparedStatement> select(connection_.prepareStatement(query));
        select->setString(1, sourceId);
        std::unique_ptr<sql::ResultSet> rows(select->executeQuery());
        while (rows->next()) {
            TableName table{std::string(rows->getString(1)), std::string(rows->getString(2))};
            std::string file = rows->getString(3);
            try {
                marks[table] = {binlog::BinlogPosition(file, rows->getUInt64(4)),
                                static_cast<uint32_t>(rows->getUInt(5))};
            } catch (const binlog::PositionError& e) {
                fail("source '" + sourceId + "', table " + table.text() + ": unreadable position: " + e.what(), query,
                     0, {});
            }
        }
    } catch (const sql::SQLException& e) {
        if (isMissingTable(e.getErrorCode())) {
            return {};
        }
        fail("cannot read the marks of source '" + sourceId + "'", query, e.getErrorCode(), e.what());
    }
    return marks;
}

void AppliedMarksStore::remove(const std::string& sourceId) {
    try {
        deleteSourceRows(connection_, table_.qualifiedName(), sourceId);
    } catch (const sql::SQLException& e) {
        fail("cannot remove the marks of source '" + sourceId + "'",
             "DELETE FROM " + table_.qualifiedName() + " WHERE id = ?", e.getErrorCode(), e.what());
    }
}

}  // namespace syncscope::checkpoint
