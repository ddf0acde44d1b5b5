// Runs DML on one downstream connection (MariaDB Connector/C) inside explicit transactions, through
// prepared statements cached per statement shape (the SQL text), every value bound as its kind needs.
// A batch's statements go out one after another without waiting for each answer, and the answers are
// read afterwards in the same order (pipelining: one round trip for the batch instead of one per
// statement); a statement whose next step depends on its own answer runs alone.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/apply/dml_session.h"
#include "engine/apply/dml_statement.h"
#include "engine/apply/downstream_connection.h"

struct st_mysql_stmt;

namespace syncscope::apply {

class DmlExecutor : public DmlSession {
public:
    // Enough shapes for a few dozen tables in every mode, far below the server's max_prepared_stmt_count.
    static constexpr size_t kDefaultStatementCacheSize = 256;
    // Parameters that the cached statements of one connection may have in all: what a prepared statement
    // holds in memory grows with them (bind buffers and parameter metadata, here and on the server).
    // This bound keeps a worker's cache under about 3 MB (40 statements of 100 rows of 4 columns)
    // whatever the shapes.
    static constexpr size_t kStatementCacheParameters = 16384;
    // Statements sent before their answers are read: far more than a batch of DM's default 100 rows makes,
    // and few enough that the answers (an OK packet each) never fill the socket's buffers.
    static constexpr size_t kMaxInFlight = 256;

    // Takes the connection and turns autocommit off: every change runs in a transaction that
    // commit() ends.
    explicit DmlExecutor(NativeConnection connection, size_t statementCacheSize = kDefaultStatementCacheSize);
    ~DmlExecutor() override;
    DmlExecutor(const DmlExecutor&) = delete;
    DmlExecutor& operator=(const DmlExecutor&) = delete;

    // Each throws DownstreamError carrying the server's code and, for DML, the SQL with its values.
    // execute returns the affected rows; for an UPDATE the rows it found (the connection sets
    // CLIENT_FOUND_ROWS), changed or not.
    uint64_t execute(const DmlStatement& statement) override;
    // Pipelined (see above). After a failure the statements sent after the failing one have run too: the
    // caller rolls the transaction back, as it does after any failure.
    void executeAll(std::span<const DmlStatement> statements, std::vector<uint64_t>& affected) override;
    bool takesArrays() const override { return takesArrays_; }
    void commit() override;
    void rollback() override;
    // A statement without parameters (session settings), outside the cache.
    void executeText(const std::string& sql);

    // The session's own foreign_key_checks (what the DBA's target-session variables left it at). A
    // statement that asks for another value gets it set before it runs, and the next one that does not
    // ask gets the session's value back.
    void setSessionForeignKeyChecks(bool on) override { sessionForeignKeyChecks_ = currentForeignKeyChecks_ = on; }
    bool readForeignKeyChecks() override;
    // MariaDB says it in a status variable any user may read; MySQL in information_schema.INNODB_METRICS,
    // which needs the PROCESS privilege. Where neither answers, it is not asked again.
    std::optional<uint64_t> readPurgeBacklog() override;

    size_t cachedStatements() const { return cache_.size(); }
    size_t cachedParameters() const { return cachedParameters_; }
    // Round trips to the server so far (a pipelined batch counts one), for tests and benchmarks.
    uint64_t roundTrips() const { return roundTrips_; }
    // Batches whose one wait for every answer ended at its time limit (the server was slow, or a statement
    // answered shorter than its shape did before, as an error does), for tests and benchmarks.
    uint64_t answerWaitsCut() const { return answerWaitsCut_; }

private:
    struct CachedStatement;
    // The MYSQL_BINDs of the statement being sent and the numbers they point at (text and bytes are
    // pointed at where they are): reused from statement to statement, read only while one is sent.
    struct Binding;
    // A statement sent whose answer is not read yet.
    struct InFlight {
        CachedStatement* cached;  // never evicted while in flight: a PREPARE waits for the answers first
        size_t index;             // in the batch
    };
    // What the server or the client said when a statement failed.
    struct Failure {
        int code = 0;
        std::string message;
    };

    // The cached statement for `sql` (with `parameters` placeholders), prepared on a miss.
    CachedStatement& prepared(const std::string& sql, size_t parameters);
    bool isCached(const std::string& sql) const { return cache_.count(sql) != 0; }
    // Sets foreign_key_checks as `statement` needs it, when the session is not there already.
    void applyForeignKeyChecks(const DmlStatement& statement);
    // Binds the statement's values and sends it: once, or once per row of an array the server cannot take
    // whole (DmlStatement::arrayRows). With `waitForAnswer` reads each answer and returns the rows they
    // count; else records each send in inFlight_ under `index`. Throws Failure.
    uint64_t send(const DmlStatement& statement, size_t index, bool waitForAnswer);
    uint64_t sendOnce(CachedStatement& cached, unsigned int arraySize, size_t index, bool waitForAnswer);
    // Binds, executes and reads one statement; throws Failure.
    uint64_t run(const DmlStatement& statement);
    // Reads the answers of the statements in flight, in order, into `affected`; the first failure is
    // kept in `failure` (the connection's, when it is lost: then nothing more is read).
    void readAnswers(std::vector<uint64_t>& affected, std::optional<std::pair<size_t, Failure>>& failure);
    // A replayed key move that found its new key held (DmlStatement::skipWhenDownstreamIsPast): deletes
    // that row without cascading and runs the move again, inside a savepoint. False (both undone) when the
    // move still fails.
    bool moveOverLaterRow(const DmlStatement& move);
    Failure statementFailure(st_mysql_stmt* statement) const;
    Failure connectionFailure() const;
    DownstreamError errorFrom(const Failure& failure, const std::string& what) const;

    NativeConnection connection_;
    size_t cacheSize_;
    size_t cachedParameters_ = 0;
    std::list<std::string> recentlyUsed_;  // front = most recent
    std::unordered_map<std::string, std::unique_ptr<CachedStatement>> cache_;
    std::unique_ptr<Binding> binding_;
    std::vector<InFlight> inFlight_;
    bool takesArrays_ = false;
    enum class PurgeSource { Status, Metrics, None };
    PurgeSource purgeSource_ = PurgeSource::Status;
    bool sessionForeignKeyChecks_ = false;
    bool currentForeignKeyChecks_ = false;
    uint64_t roundTrips_ = 0;
    uint64_t answerWaitsCut_ = 0;
};

}  // namespace syncscope::apply
