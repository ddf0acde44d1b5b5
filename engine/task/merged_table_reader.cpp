#include "engine/task/merged_table_reader.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include <memory>

#include "engine/filter/name_case.h"

namespace syncscope::task {

namespace {

constexpr const char* kProbeTable = "_syncscope_column_probe";

}  // namespace

MergedTableReader::MergedTableReader(sql::Connection& connection, std::string probeSchema)
    : connection_(connection), probeSchema_(std::move(probeSchema)) {}

MergedTable MergedTableReader::read(const TableName& target) {
    MergedTable merged;
    std::unique_ptr<sql::PreparedStatement> columns(connection_.prepareStatement(
        "SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT IS NOT NULL FROM information_schema.COLUMNS "
        "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"));
    columns->setString(1, target.schema);
    columns->setString(2, target.table);
    std::unique_ptr<sql::ResultSet> rows(columns->executeQuery());
    while (rows->next()) {
        MergedColumn column;
        column.type = rows->getString(2);
        column.nullable = rows->getString(3) == "YES";
        column.hasDefault = rows->getBoolean(4);
        merged.columns[filter::foldNameCase(std::string(rows->getString(1)), false)] = std::move(column);
    }
    std::unique_ptr<sql::PreparedStatement> indexes(
        connection_.prepareStatement("SELECT INDEX_NAME, NON_UNIQUE, COLUMN_NAME FROM information_schema.STATISTICS "
                                     "WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY INDEX_NAME, SEQ_IN_INDEX"));
    indexes->setString(1, target.schema);
    indexes->setString(2, target.table);
    rows.reset(indexes->executeQuery());
    while (rows->next()) {
        std::string name = rows->getString(1);
        if (merged.indexes.empty() || merged.indexes.back().name != name) {
            merged.indexes.push_back({name, {}, rows->getInt(2) == 0});
        }
        merged.indexes.back().columns.push_back(rows->getString(3));
    }
    return merged;
}

std::optional<MergedColumn> MergedTableReader::probe(const std::string& definition) {
    const std::string table = TableName{probeSchema_, kProbeTable}.quoted();
    std::unique_ptr<sql::Statement> statement(connection_.createStatement());
    try {
        statement->execute("DROP TEMPORARY TABLE IF EXISTS " + table);
        statement->execute("CREATE TEMPORARY TABLE " + table + " (`c` " + definition + ")");
    } catch (const sql::SQLException&) {
        return std::nullopt;
    }
    std::optional<MergedColumn> column;
    {
        std::unique_ptr<sql::ResultSet> rows(statement->executeQuery("SHOW COLUMNS FROM " + table));
        if (rows->next()) {
            column = MergedColumn{
                rows->getString("Type"), rows->getString("Null") == "YES",
                !rows->isNull("Default") || rows->getString("Extra").find("auto_increment") != sql::SQLString::npos};
        }
    }
    statement->execute("DROP TEMPORARY TABLE IF EXISTS " + table);
    return column;
}

}  // namespace syncscope::task
