#include "engine/precheck/sql_session.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/resultset.h>
#include <cppconn/resultset_metadata.h>
#include <cppconn/statement.h>

#include "engine/apply/downstream_connection.h"
#include "engine/source/upstream_connection.h"

namespace syncscope::precheck {

namespace {

class UpstreamSession : public SqlSession {
public:
    explicit UpstreamSession(const ServerSettings& settings) : connection_(settings) {}
    std::vector<SqlRow> query(const std::string& sql) override { return connection_.query(sql); }
    void execute(const std::string& sql) override { connection_.execute(sql); }
    std::string server() const override { return "upstream " + connection_.settings().describe(); }

private:
    source::UpstreamConnection connection_;
};

class DownstreamSession : public SqlSession {
public:
    explicit DownstreamSession(const ServerSettings& settings)
        : settings_(settings), connection_(apply::connectDownstream(settings)) {}

    std::vector<SqlRow> query(const std::string& sql) override {
        try {
            std::unique_ptr<sql::Statement> statement(connection_->createStatement());
            std::unique_ptr<sql::ResultSet> result(statement->executeQuery(sql));
            std::vector<SqlRow> rows;
            const unsigned columns = result->getMetaData()->getColumnCount();
            while (result->next()) {
                SqlRow row;
                for (unsigned i = 1; i <= columns; ++i) {
                    std::string value = result->getString(i);
                    row.emplace_back(result->wasNull() ? std::nullopt : std::optional<std::string>(value));
                }
                rows.push_back(std::move(row));
            }
            return rows;
        } catch (const sql::SQLException& e) {
            throw apply::DownstreamError(
                server() + ": query failed (" + sql + "): " + e.what() + " [" + std::to_string(e.getErrorCode()) + "]",
                e.getErrorCode(), e.what(), sql);
        }
    }

    void execute(const std::string& sql) override {
        try {
            std::unique_ptr<sql::Statement> statement(connection_->createStatement());
            statement->execute(sql);
        } catch (const sql::SQLException& e) {
            throw apply::DownstreamError(server() + ": statement failed (" + sql + "): " + e.what() + " [" +
                                             std::to_string(e.getErrorCode()) + "]",
                                         e.getErrorCode(), e.what(), sql);
        }
    }

    std::string server() const override { return "downstream " + settings_.describe(); }

private:
    ServerSettings settings_;
    std::unique_ptr<sql::Connection> connection_;
};

}  // namespace

std::optional<std::string> SqlSession::queryValue(const std::string& sql) {
    auto rows = query(sql);
    if (rows.empty() || rows.front().empty()) {
        return std::nullopt;
    }
    return rows.front().front();
}

std::optional<std::string> SqlSession::globalVariable(const std::string& name) {
    auto rows = query("SHOW GLOBAL VARIABLES LIKE " + sqlString(name));
    if (rows.empty() || rows.front().size() < 2) {
        return std::nullopt;
    }
    return rows.front()[1].value_or("");
}

std::unique_ptr<SqlSession> connectUpstreamSession(const ServerSettings& settings) {
    return std::make_unique<UpstreamSession>(settings);
}

std::unique_ptr<SqlSession> connectDownstreamSession(const ServerSettings& settings) {
    return std::make_unique<DownstreamSession>(settings);
}

std::string sqlString(const std::string& text) {
    std::string quoted = "'";
    for (char c : text) {
        if (c == '\'' || c == '\\') {
            quoted += '\\';
        }
        quoted += c;
    }
    return quoted + "'";
}

}  // namespace syncscope::precheck
