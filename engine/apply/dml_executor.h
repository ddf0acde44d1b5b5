// Runs DML on one downstream connection inside explicit transactions, through prepared statements
// cached per statement shape (the SQL text), binding each value with the setter its kind needs.
#pragma once

#include <cstddef>
#include <list>
#include <memory>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/apply/dml_session.h"
#include "engine/apply/dml_statement.h"

namespace sql {
class Connection;
class PreparedStatement;
}  // namespace sql

namespace syncscope::apply {

class DmlExecutor : public DmlSession {
public:
    // Enough shapes for a few dozen tables in every mode, far below the server's max_prepared_stmt_count.
    static constexpr size_t kDefaultStatementCacheSize = 256;
    // Parameters that the cached statements of one connection may have in all: what a prepared statement
    // holds in memory grows with them (bind buffers and parameter metadata, here and on the server).
    // 256 shapes of multi-row statements measured 12 MB per worker; this bound keeps a worker's cache
    // under about 3 MB (40 statements of 100 rows of 4 columns) whatever the shapes.
    static constexpr size_t kStatementCacheParameters = 16384;

    // Takes the connection and turns autocommit off: every change runs in a transaction that
    // commit() ends.
    explicit DmlExecutor(std::unique_ptr<sql::Connection> connection,
                         size_t statementCacheSize = kDefaultStatementCacheSize);
    ~DmlExecutor() override;
    DmlExecutor(const DmlExecutor&) = delete;
    DmlExecutor& operator=(const DmlExecutor&) = delete;

    // Each throws DownstreamError carrying the server's code and, for DML, the SQL with its values.
    // execute returns the affected rows; for an UPDATE the rows it found (the connection sets
    // CLIENT_FOUND_ROWS), changed or not.
    uint64_t execute(const DmlStatement& statement) override;
    void commit() override;
    void rollback() override;
    // A statement without parameters (session settings), outside the cache.
    void executeText(const std::string& sql);

    // The session's own foreign_key_checks (what the DBA's target-session variables left it at). A
    // statement that asks for another value gets it set before it runs, and the next one that does not
    // ask gets the session's value back.
    void setSessionForeignKeyChecks(bool on) override { sessionForeignKeyChecks_ = currentForeignKeyChecks_ = on; }
    bool readForeignKeyChecks() override;

    sql::Connection& connection() { return *connection_; }
    size_t cachedStatements() const { return cache_.size(); }
    size_t cachedParameters() const { return cachedParameters_; }

private:
    struct CachedStatement;

    // The cached statement for `sql` (with `parameters` placeholders), prepared on a miss.
    sql::PreparedStatement& prepared(const std::string& sql, size_t parameters);
    // Binds and executes one statement with its foreign_key_checks; throws sql::SQLException.
    uint64_t run(const DmlStatement& statement);
    // A replayed key move that found its new key held (DmlStatement::skipWhenDownstreamIsPast): deletes
    // that row without cascading and runs the move again, inside a savepoint. False (both undone) when the
    // move still fails.
    bool moveOverLaterRow(const DmlStatement& move);

    std::unique_ptr<sql::Connection> connection_;
    size_t cacheSize_;
    size_t cachedParameters_ = 0;
    std::list<std::string> recentlyUsed_;  // front = most recent
    std::unordered_map<std::string, std::unique_ptr<CachedStatement>> cache_;
    std::vector<std::unique_ptr<std::istringstream>> blobs_;  // must live until execute returns
    bool sessionForeignKeyChecks_ = false;
    bool currentForeignKeyChecks_ = false;
};

}  // namespace syncscope::apply
