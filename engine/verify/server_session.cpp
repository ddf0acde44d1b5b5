#include "engine/verify/server_session.h"

#include <array>
#include <charconv>
#include <limits>

#include <cppconn/connection.h>
#include <cppconn/datatype.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/resultset_metadata.h>
#include <cppconn/statement.h>

#include "engine/apply/downstream_connection.h"
#include "engine/apply/sql_value_binding.h"
#include "engine/common/server_errors.h"

namespace syncscope::verify {

namespace {

using namespace server_error;  // NOLINT: the error numbers read as in the server's docs

bool isIntegerType(int type) {
    switch (type) {
        case sql::DataType::TINYINT:
        case sql::DataType::SMALLINT:
        case sql::DataType::MEDIUMINT:
        case sql::DataType::INTEGER:
        case sql::DataType::BIGINT:
            return true;
        default:
            return false;
    }
}

std::vector<RowValues> readRows(sql::ResultSet& result) {
    std::vector<RowValues> rows;
    sql::ResultSetMetaData* meta = result.getMetaData();
    const unsigned int columns = meta->getColumnCount();
    // Integers (counts, row hashes) are printed here: the connector's getString formats them through
    // snprintf, which cost a fifth of reading a chunk's row hashes.
    enum class Read : uint8_t { Text, Signed, Unsigned };
    std::vector<Read> reads(columns + 1, Read::Text);
    for (unsigned int i = 1; i <= columns; ++i) {
        if (isIntegerType(meta->getColumnType(i))) {
            reads[i] = meta->isSigned(i) ? Read::Signed : Read::Unsigned;
        }
    }
    rows.reserve(result.rowsCount());
    std::array<char, std::numeric_limits<uint64_t>::digits10 + 3> digits{};
    while (result.next()) {
        RowValues row;
        row.reserve(columns);
        for (unsigned int i = 1; i <= columns; ++i) {
            if (result.isNull(i)) {
                row.emplace_back(std::nullopt);
                continue;
            }
            switch (reads[i]) {
                case Read::Signed: {
                    auto end = std::to_chars(digits.data(), digits.data() + digits.size(), result.getInt64(i)).ptr;
                    row.emplace_back(std::string(digits.data(), end));
                    break;
                }
                case Read::Unsigned: {
                    auto end = std::to_chars(digits.data(), digits.data() + digits.size(), result.getUInt64(i)).ptr;
                    row.emplace_back(std::string(digits.data(), end));
                    break;
                }
                case Read::Text:
                    row.emplace_back(std::string(result.getString(i)));
                    break;
            }
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

}  // namespace

ServerSession::ServerSession(std::string side, const ServerSettings& settings, int lockWaitSeconds)
    : side_(std::move(side)), settings_(settings) {
    try {
        connection_ = apply::connectDownstream(settings);
    } catch (const apply::DownstreamError& e) {
        throw ServerError(side_ + ": " + e.what(), e.code());
    }
    execute("SET SESSION time_zone = '+00:00'");
    execute("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
    execute("SET SESSION innodb_lock_wait_timeout = " + std::to_string(lockWaitSeconds));
    auto id = query(std::string("SELECT CONNECTION_ID()"));
    connectionId_ = id.empty() || id.front().empty() ? "" : id.front().front().value_or("");
}

ServerSession::~ServerSession() {
    statements_.clear();  // statements belong to the connection
}

bool ServerSession::isLockConflict(int code) {
    return code == kLockWaitTimeout || code == kDeadlock;
}

bool ServerSession::isConnectionLost(int code) {
    return code == kServerGone || code == kServerLost || code == kCannotConnect;
}

sql::PreparedStatement& ServerSession::prepared(const std::string& sql) {
    auto it = statements_.find(sql);
    if (it == statements_.end()) {
        it =
            statements_.emplace(sql, std::unique_ptr<sql::PreparedStatement>(connection_->prepareStatement(sql))).first;
    }
    return *it->second;
}

std::vector<RowValues> ServerSession::query(const BoundQuery& query) {
    apply::ParameterStreams streams;
    try {
        sql::PreparedStatement& statement = prepared(query.sql);
        for (size_t i = 0; i < query.params.size(); ++i) {
            apply::bindSqlValue(statement, static_cast<unsigned int>(i + 1), query.params[i], streams);
        }
        std::unique_ptr<sql::ResultSet> result(statement.executeQuery());
        return readRows(*result);
    } catch (const sql::SQLException& e) {
        throw ServerError(describe() + ": query failed: " + e.what() + " [" + std::to_string(e.getErrorCode()) + "] (" +
                              query.sql + ")",
                          e.getErrorCode());
    }
}

std::vector<RowValues> ServerSession::query(const std::string& sql) {
    try {
        std::unique_ptr<sql::Statement> statement(connection_->createStatement());
        std::unique_ptr<sql::ResultSet> result(statement->executeQuery(sql));
        return readRows(*result);
    } catch (const sql::SQLException& e) {
        throw ServerError(
            describe() + ": query failed: " + e.what() + " [" + std::to_string(e.getErrorCode()) + "] (" + sql + ")",
            e.getErrorCode());
    }
}

void ServerSession::execute(const std::string& sql) {
    try {
        std::unique_ptr<sql::Statement> statement(connection_->createStatement());
        statement->execute(sql);
    } catch (const sql::SQLException& e) {
        throw ServerError(describe() + ": statement failed: " + e.what() + " [" + std::to_string(e.getErrorCode()) +
                              "] (" + sql + ")",
                          e.getErrorCode());
    }
}

binlog::Location ServerSession::binlogPosition() {
    auto status = query("SHOW MASTER STATUS");
    if (status.empty() || status.front().size() < 2 || !status.front()[0] || !status.front()[1]) {
        throw VerifyError(describe() + ": SHOW MASTER STATUS returned no position: is binary logging on?");
    }
    std::string gtid;
    try {
        auto rows = query("SELECT @@GLOBAL.gtid_binlog_pos");
        if (!rows.empty() && rows.front().front()) {
            gtid = *rows.front().front();
        }
    } catch (const ServerError&) {
        // MySQL has no gtid_binlog_pos: the file and offset alone place the point.
    }
    return binlog::Location::fromParts(*status.front()[0], std::stoull(*status.front()[1]), gtid);
}

}  // namespace syncscope::verify
