#include "tests/integration/differential/sql_session.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/resultset.h>
#include <cppconn/resultset_metadata.h>
#include <cppconn/statement.h>
#include <mysql_driver.h>

#include <cstdlib>
#include <mutex>

namespace syncscope::differential {

namespace {

constexpr int kReplicaPortAboveDownstream = 2;
constexpr int kConnectTimeoutSeconds = 10;
constexpr int kReadTimeoutSeconds = 300;

sql::mysql::MySQL_Driver* driver() {
    // get_driver_instance is not thread-safe on its first call.
    static std::once_flag once;
    static sql::mysql::MySQL_Driver* instance = nullptr;
    std::call_once(once, [] { instance = sql::mysql::get_mysql_driver_instance(); });
    return instance;
}

}  // namespace

test::ServerSettings replicaRoot() {
    test::ServerSettings replica = test::downstreamRoot();
    const char* port = std::getenv("SYNCSCOPE_REPLICA_PORT");
    replica.port = port != nullptr && *port != '\0' ? std::atoi(port) : replica.port + kReplicaPortAboveDownstream;
    return replica;
}

SqlSession::SqlSession(const test::ServerSettings& server, const std::string& database) : server_(server) {
    try {
        sql::ConnectOptionsMap options;
        options["hostName"] = sql::SQLString(server.host);
        options["port"] = server.port;
        options["OPT_CONNECT_TIMEOUT"] = kConnectTimeoutSeconds;
        // Longer than any wait the checks ask the server for (MASTER_GTID_WAIT), so that nothing hangs.
        options["OPT_READ_TIMEOUT"] = kReadTimeoutSeconds;
        options["userName"] = sql::SQLString(server.user);
        options["password"] = sql::SQLString(server.password);
        options["OPT_CHARSET_NAME"] = sql::SQLString("utf8mb4");
        connection_.reset(driver()->connect(options));
        std::unique_ptr<sql::Statement> statement(connection_->createStatement());
        statement->execute("SET NAMES utf8mb4");
        if (!database.empty()) {
            statement->execute("USE `" + database + "`");
        }
    } catch (const sql::SQLException& e) {
        throw SqlFailure("cannot connect to 127.0.0.1:" + std::to_string(server.port) + ": " + e.what(),
                         e.getErrorCode());
    }
}

SqlSession::~SqlSession() = default;

void SqlSession::fail(const std::string& sql, const std::exception& error) const {
    int code = 0;
    if (const auto* e = dynamic_cast<const sql::SQLException*>(&error)) {
        code = e->getErrorCode();
    }
    throw SqlFailure("port " + std::to_string(server_.port) + ": " + sql.substr(0, 300) + ": " + error.what() +
                         " (code " + std::to_string(code) + ")",
                     code);
}

void SqlSession::execute(const std::string& sql) {
    try {
        std::unique_ptr<sql::Statement> statement(connection_->createStatement());
        statement->execute(sql);
        // Drain any result so that the session stays usable.
        do {
            std::unique_ptr<sql::ResultSet> ignored(statement->getResultSet());
        } while (statement->getMoreResults());
    } catch (const sql::SQLException& e) {
        fail(sql, e);
    }
}

std::vector<SqlRow> SqlSession::query(const std::string& sql) {
    std::vector<SqlRow> rows;
    try {
        std::unique_ptr<sql::Statement> statement(connection_->createStatement());
        std::unique_ptr<sql::ResultSet> result(statement->executeQuery(sql));
        const unsigned columns = result->getMetaData()->getColumnCount();
        while (result->next()) {
            SqlRow row;
            for (unsigned i = 1; i <= columns; ++i) {
                std::string text = result->getString(i);
                row.push_back(result->wasNull() ? std::nullopt : std::optional<std::string>(text));
            }
            rows.push_back(std::move(row));
        }
    } catch (const sql::SQLException& e) {
        fail(sql, e);
    }
    return rows;
}

std::optional<std::string> SqlSession::value(const std::string& sql) {
    auto rows = query(sql);
    return rows.empty() || rows.front().empty() ? std::nullopt : rows.front().front();
}

}  // namespace syncscope::differential
