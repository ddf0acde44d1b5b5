#include "engine/apply/dml_executor.h"

// clang-format off
#include <mysql.h>
#include <errmsg.h>
// clang-format on

#include <poll.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <algorithm>
#include <charconv>
#include <memory>
#include <string_view>

#include "engine/common/server_errors.h"

namespace syncscope::apply {

struct DmlExecutor::CachedStatement {
    MYSQL_STMT* statement = nullptr;
    std::list<std::string>::iterator usePosition;
    size_t parameters = 0;
    size_t answerBytes = 0;  // the fewest bytes its answers took so far (answerFloor); 0: none read yet
    ~CachedStatement() {
        if (statement != nullptr) {
            mysql_stmt_close(statement);
        }
    }
};

struct DmlExecutor::Binding {
    union Number {
        int64_t signedValue;
        uint64_t unsignedValue;
        double doubleValue;
    };
    std::vector<MYSQL_BIND> binds;
    std::vector<Number> numbers;
    // Array binding, column by column: value i of column c at [c * rows + i].
    std::vector<const char*> texts;
    std::vector<unsigned long> lengths;
    std::vector<char> indicators;

    // Points binds[i] at params[i]: numbers copied into `numbers`, text and bytes where they are (the
    // RowChanges outlive the statement). Text goes as a string in the connection's character set, bytes as
    // a BLOB (the binary character set: no conversion, NUL bytes kept), NULL as NULL.
    void bind(std::span<const SqlValue* const> params) {
        binds.assign(params.size(), MYSQL_BIND{});
        numbers.resize(params.size());
        for (size_t i = 0; i < params.size(); ++i) {
            const SqlValue& value = *params[i];
            MYSQL_BIND& bind = binds[i];
            switch (value.kind()) {
                case SqlValueKind::Null:
                    bind.buffer_type = MYSQL_TYPE_NULL;
                    break;
                case SqlValueKind::Signed:
                    numbers[i].signedValue = value.asSigned();
                    bind.buffer_type = MYSQL_TYPE_LONGLONG;
                    bind.buffer = &numbers[i].signedValue;
                    break;
                case SqlValueKind::Unsigned:
                    numbers[i].unsignedValue = value.asUnsigned();
                    bind.buffer_type = MYSQL_TYPE_LONGLONG;
                    bind.buffer = &numbers[i].unsignedValue;
                    bind.is_unsigned = 1;
                    break;
                case SqlValueKind::Double:
                    numbers[i].doubleValue = value.asDouble();
                    bind.buffer_type = MYSQL_TYPE_DOUBLE;
                    bind.buffer = &numbers[i].doubleValue;
                    break;
                case SqlValueKind::Text:
                case SqlValueKind::Bytes: {
                    const std::string_view text = value.asString();
                    bind.buffer_type = value.kind() == SqlValueKind::Text ? MYSQL_TYPE_STRING : MYSQL_TYPE_BLOB;
                    // Connector/C only reads through the pointer.
                    bind.buffer = const_cast<char*>(text.data());
                    bind.buffer_length = static_cast<unsigned long>(text.size());
                    break;
                }
            }
        }
    }

    // Binds `rows` rows of values (params holds them one row after another) as one array per column, each
    // value bound as bind() binds it, NULLs by their indicator. False, binding nothing, when a column's values
    // are not all of one form (NULL aside): then the rows are sent one at a time.
    bool bindArrays(const std::vector<const SqlValue*>& params, size_t rows) {
        const size_t columns = params.size() / rows;
        std::vector<SqlValueKind> kinds(columns, SqlValueKind::Null);
        for (size_t i = 0; i < params.size(); ++i) {
            SqlValueKind kind = params[i]->kind();
            SqlValueKind& column = kinds[i % columns];
            if (kind != SqlValueKind::Null && column != kind) {
                if (column != SqlValueKind::Null) {
                    return false;
                }
                column = kind;
            }
        }
        binds.assign(columns, MYSQL_BIND{});
        numbers.resize(params.size());
        texts.resize(params.size());
        lengths.resize(params.size());
        indicators.resize(params.size());
        for (size_t c = 0; c < columns; ++c) {
            const size_t first = c * rows;
            for (size_t row = 0; row < rows; ++row) {
                const SqlValue& value = *params[row * columns + c];
                const size_t at = first + row;
                indicators[at] = value.isNull() ? STMT_INDICATOR_NULL : STMT_INDICATOR_NONE;
                numbers[at].unsignedValue = value.asUnsigned();  // the 8 bytes, whichever number form
                if (kinds[c] == SqlValueKind::Double) {
                    numbers[at].doubleValue = value.asDouble();
                }
                const std::string_view text = value.asString();
                texts[at] = text.data();
                lengths[at] = static_cast<unsigned long>(text.size());
            }
            MYSQL_BIND& bind = binds[c];
            bind.u.indicator = &indicators[first];
            switch (kinds[c]) {
                case SqlValueKind::Signed:
                case SqlValueKind::Unsigned:
                    bind.buffer_type = MYSQL_TYPE_LONGLONG;
                    bind.buffer = &numbers[first];
                    bind.is_unsigned = kinds[c] == SqlValueKind::Unsigned;
                    break;
                case SqlValueKind::Double:
                    bind.buffer_type = MYSQL_TYPE_DOUBLE;
                    bind.buffer = &numbers[first];
                    break;
                case SqlValueKind::Null:  // every row NULL: strings that are all NULL
                case SqlValueKind::Text:
                case SqlValueKind::Bytes:
                    bind.buffer_type = kinds[c] == SqlValueKind::Bytes ? MYSQL_TYPE_BLOB : MYSQL_TYPE_STRING;
                    bind.buffer = texts.data() + first;
                    bind.length = lengths.data() + first;
                    break;
            }
        }
        return true;
    }
};

namespace {

// The errors by which a replayed cascading key move finds the downstream past it (DmlStatement).
bool downstreamIsPast(int code) {
    return code == server_error::kDuplicateEntry || code == server_error::kRowIsReferenced ||
           code == server_error::kForeignDuplicateWithChild || code == server_error::kForeignDuplicateWithoutChild;
}

// Connector/C's own errors (CR_*): the connection, not the statement, failed; nothing more can be read.
bool clientError(int code) {
    return code >= CR_MIN_ERROR && code <= CR_MAX_ERROR;
}

// A statement that runs alone: what it does next depends on its own answer.
bool needsItsAnswer(const DmlStatement& statement) {
    return !statement.insertWhenUnmatched.empty() || statement.dropIfParentMissing ||
           statement.skipWhenDownstreamIsPast;
}

uint64_t affectedRows(MYSQL_STMT* statement) {
    my_ulonglong rows = mysql_stmt_affected_rows(statement);
    return rows == static_cast<my_ulonglong>(-1) ? 0 : static_cast<uint64_t>(rows);
}

void setSkipReadResponse(MYSQL* mysql, bool skip) {
    my_bool value = skip ? 1 : 0;
    mysql_optionsv(mysql, MARIADB_OPT_SKIP_READ_RESPONSE, &value);
}

// The fewest bytes one answer to a statement takes on the wire: an OK packet's 4-byte header and 7-byte
// body (marker, affected rows, insert id, status, warnings); an error packet takes more.
constexpr size_t kMinAnswerBytes = 11;

// A lower bound of the answers the statement that just answered OK will give again: the OK packet's fixed
// bytes and its message with every number in it one digit long ("Rows matched: 12  Changed: 12  Warnings: 0"
// comes back with other counts next time). mysql->info was cleared before the answer was read.
size_t answerFloor(const MYSQL* mysql) {
    if (mysql->info == nullptr) {
        return kMinAnswerBytes;
    }
    size_t length = 0;
    size_t extraDigits = 0;
    bool inNumber = false;
    for (const char* c = mysql->info; *c != '\0'; ++c) {
        const bool digit = *c >= '0' && *c <= '9';
        extraDigits += digit && inNumber ? 1 : 0;
        inNumber = digit;
        ++length;
    }
    // Its length byte is left out: a server without session tracking sends the message without one.
    return kMinAnswerBytes + length - extraDigits;
}

// How a worker waits for the answers of a pipelined batch. The server sends one packet per statement, and
// each woke the reading thread (about one context switch per statement); here the socket's low-water mark
// (SO_RCVLOWAT) lets the kernel report data only once the answers can all be there:
// - first one wait for every answer at once, by the bytes the batch's statement shapes answered with before
//   (answerFloor), bounded in time (kFirstWaitLimitMs): where a shape answers shorter than it did (an error, a
//   message that changed) or the server is slow, the wait ends at the limit and the answers are read as
//   below (and what they took is learned); when the bytes came, the mark goes back to 1 and the answers are
//   read as they come;
// - else before the answer at `index` of `count` is read: the stream still holds the unread rest of that
//   answer (one byte or more: Connector/C reads the socket only for bytes it has not buffered) and every later
//   answer whole, at least 11 bytes each, so the mark 1 + 11 x (answers after it) is always reached and never
//   waits past the last answer.
// A lost connection wakes the reader whatever the mark. Off over TLS (the TLS layer buffers records of its
// own) and where the option is refused; back to 1 (the kernel's default) when the answers are read.
class AnswerWait {
public:
    static constexpr int kFirstWaitLimitMs = 100;

    explicit AnswerWait(MYSQL* mysql)
        : socket_(mysql_get_ssl_cipher(mysql) == nullptr ? static_cast<int>(mysql_get_socket(mysql)) : -1) {}
    ~AnswerWait() { set(1); }
    AnswerWait(const AnswerWait&) = delete;
    AnswerWait& operator=(const AnswerWait&) = delete;

    enum class Outcome { NotWaited, Arrived, Cut };

    // Waits until `expectedBytes` can be read, or kFirstWaitLimitMs has passed. Arrived: the mark is back at 1
    // and the answers are read without marks (any bytes still due come soon after); else read answer by answer.
    Outcome awaitAll(size_t expectedBytes) {
        set(static_cast<int>(std::min(expectedBytes, kMaxMark)));
        if (socket_ < 0 || current_ <= 1) {
            return Outcome::NotWaited;
        }
        pollfd readable{socket_, POLLIN, 0};
        const int ready = poll(&readable, 1, kFirstWaitLimitMs);
        if (ready == 0) {
            return Outcome::Cut;
        }
        if (ready != 1 || (readable.revents & POLLIN) == 0) {
            return Outcome::NotWaited;  // an error or a hang-up: Connector/C's reads say which
        }
        set(1);
        return Outcome::Arrived;
    }

    void beforeAnswer(size_t index, size_t count) {
        const size_t later = count - index - 1;
        set(static_cast<int>(std::min(1 + kMinAnswerBytes * later, kMaxMark)));
    }

private:
    static constexpr size_t kMaxMark = 1 << 16;

    void set(int bytes) {
        if (socket_ < 0 || bytes == current_) {
            return;
        }
        if (setsockopt(socket_, SOL_SOCKET, SO_RCVLOWAT, &bytes, sizeof(bytes)) != 0) {
            // Refused: back to the default (a higher mark left behind could outlast the bytes still due).
            const int one = 1;
            setsockopt(socket_, SOL_SOCKET, SO_RCVLOWAT, &one, sizeof(one));
            socket_ = -1;
            return;
        }
        current_ = bytes;
    }

    int socket_;
    int current_ = 1;
};

}  // namespace

DmlExecutor::DmlExecutor(NativeConnection connection, size_t statementCacheSize)
    : connection_(std::move(connection)),
      cacheSize_(statementCacheSize == 0 ? 1 : statementCacheSize),
      binding_(std::make_unique<Binding>()) {
    if (mysql_autocommit(connection_.get(), 0) != 0) {
        throw errorFrom(connectionFailure(), "cannot turn autocommit off on the downstream connection");
    }
    takesArrays_ = takesArrayBinding(connection_.get());
}

DmlExecutor::~DmlExecutor() {
    // Statements first: they belong to the connection.
    cache_.clear();
}

DmlExecutor::Failure DmlExecutor::statementFailure(MYSQL_STMT* statement) const {
    return Failure{static_cast<int>(mysql_stmt_errno(statement)), mysql_stmt_error(statement)};
}

DmlExecutor::Failure DmlExecutor::connectionFailure() const {
    return Failure{static_cast<int>(mysql_errno(connection_.get())), mysql_error(connection_.get())};
}

DownstreamError DmlExecutor::errorFrom(const Failure& failure, const std::string& what) const {
    return DownstreamError(what + ": " + failure.message + " [" + std::to_string(failure.code) + "]", failure.code,
                           failure.message, what);
}

DmlExecutor::CachedStatement& DmlExecutor::prepared(const std::string& sql, size_t parameters) {
    auto it = cache_.find(sql);
    if (it != cache_.end()) {
        recentlyUsed_.splice(recentlyUsed_.begin(), recentlyUsed_, it->second->usePosition);
        return *it->second;
    }
    // The least recently used go until the new statement fits both bounds (it is kept even alone over
    // the parameter bound: it runs now).
    while (!cache_.empty() &&
           (cache_.size() >= cacheSize_ || cachedParameters_ + parameters > kStatementCacheParameters)) {
        auto oldest = cache_.find(recentlyUsed_.back());
        cachedParameters_ -= oldest->second->parameters;
        cache_.erase(oldest);
        recentlyUsed_.pop_back();
    }
    auto entry = std::make_unique<CachedStatement>();
    entry->statement = mysql_stmt_init(connection_.get());
    if (entry->statement == nullptr) {
        throw Failure{CR_OUT_OF_MEMORY, "out of memory creating a statement"};
    }
    ++roundTrips_;
    if (mysql_stmt_prepare(entry->statement, sql.data(), sql.size()) != 0) {
        throw statementFailure(entry->statement);
    }
    entry->parameters = parameters;
    recentlyUsed_.push_front(sql);
    entry->usePosition = recentlyUsed_.begin();
    CachedStatement& cached = *entry;
    cache_.emplace(sql, std::move(entry));
    cachedParameters_ += parameters;
    return cached;
}

void DmlExecutor::applyForeignKeyChecks(const DmlStatement& statement) {
    bool foreignKeyChecks = statement.foreignKeyChecks.value_or(sessionForeignKeyChecks_);
    if (foreignKeyChecks != currentForeignKeyChecks_) {
        executeText(foreignKeyChecks ? "SET SESSION foreign_key_checks = 1" : "SET SESSION foreign_key_checks = 0");
        currentForeignKeyChecks_ = foreignKeyChecks;
    }
}

uint64_t DmlExecutor::sendOnce(CachedStatement& cached, unsigned int arraySize, size_t index, bool waitForAnswer) {
    MYSQL_STMT* prepared = cached.statement;
    if (mysql_stmt_attr_set(prepared, STMT_ATTR_ARRAY_SIZE, &arraySize) != 0 ||
        mysql_stmt_bind_param(prepared, binding_->binds.data()) != 0) {
        throw statementFailure(prepared);
    }
    MYSQL* mysql = connection_.get();
    if (!waitForAnswer) {
        setSkipReadResponse(mysql, true);
    }
    int status = mysql_stmt_execute(prepared);
    if (!waitForAnswer) {
        setSkipReadResponse(mysql, false);
    }
    if (status != 0) {
        throw statementFailure(prepared);
    }
    if (!waitForAnswer) {
        inFlight_.push_back(InFlight{&cached, index});
        return 0;
    }
    ++roundTrips_;
    return affectedRows(prepared);
}

uint64_t DmlExecutor::send(const DmlStatement& statement, size_t index, bool waitForAnswer) {
    const size_t rows = std::max<size_t>(statement.arrayRows, 1);
    const size_t perRow = statement.params.size() / rows;
    CachedStatement& prepared = this->prepared(statement.sql, perRow);
    if (rows > 1 && takesArrays_ && binding_->bindArrays(statement.params, rows)) {
        return sendOnce(prepared, static_cast<unsigned int>(rows), index, waitForAnswer);
    }
    uint64_t found = 0;
    const std::span<const SqlValue* const> params(statement.params);
    for (size_t row = 0; row < rows; ++row) {
        binding_->bind(params.subspan(row * perRow, perRow));
        found += sendOnce(prepared, 0, index, waitForAnswer);
    }
    return found;
}

uint64_t DmlExecutor::run(const DmlStatement& statement) {
    applyForeignKeyChecks(statement);
    return send(statement, 0, true);
}

uint64_t DmlExecutor::execute(const DmlStatement& statement) {
    try {
        uint64_t found = run(statement);
        if (found == 0 && !statement.insertWhenUnmatched.empty()) {
            uint64_t inserted = 0;
            for (const DmlStatement& insert : statement.insertWhenUnmatched) {
                try {
                    inserted += run(insert);
                } catch (const Failure& failure) {
                    throw errorFrom(failure, insert.describe());
                }
            }
            return inserted;
        }
        return found;
    } catch (const Failure& failure) {
        if (statement.dropIfParentMissing && failure.code == server_error::kNoReferencedRow) {
            // InnoDB rolled back this statement only; the transaction goes on without the orphan.
            spdlog::info(
                "safe mode: a replayed row is dropped, its parent row is gone downstream (a cascade "
                "already removed it): {}",
                statement.describe());
            return 0;
        }
        if (statement.skipWhenDownstreamIsPast && downstreamIsPast(failure.code)) {
            if (failure.code == server_error::kDuplicateEntry && moveOverLaterRow(statement)) {
                return 1;
            }
            spdlog::info(
                "safe mode: a replayed key move of a cascading parent row is skipped, the downstream is past it "
                "(error {}: a later change holds the key or references the old one; the later changes are "
                "replayed after it): {}",
                failure.code, statement.describe());
            return 0;
        }
        throw errorFrom(failure, statement.describe());
    }
}

void DmlExecutor::readAnswers(std::vector<uint64_t>& affected, std::optional<std::pair<size_t, Failure>>& failure) {
    if (inFlight_.empty()) {
        return;
    }
    ++roundTrips_;
    MYSQL* mysql = connection_.get();
    AnswerWait wait(mysql);
    size_t expectedBytes = 0;
    for (const InFlight& sent : inFlight_) {
        expectedBytes += std::max(sent.cached->answerBytes, kMinAnswerBytes);
    }
    const AnswerWait::Outcome waited = wait.awaitAll(expectedBytes);
    answerWaitsCut_ += waited == AnswerWait::Outcome::Cut ? 1 : 0;
    const bool arrived = waited == AnswerWait::Outcome::Arrived;
    for (size_t i = 0; i < inFlight_.size(); ++i) {
        const InFlight& sent = inFlight_[i];
        MYSQL_STMT* statement = sent.cached->statement;
        if (!arrived) {
            wait.beforeAnswer(i, inFlight_.size());
        }
        mysql->info = nullptr;  // set again by an answer that carries a message
        if (mysql->methods->db_read_execute_response(statement) != 0) {
            sent.cached->answerBytes = 0;  // learned again from its next answer
            Failure answer = statementFailure(statement);
            if (!failure) {
                failure.emplace(sent.index, answer);
            }
            if (clientError(answer.code)) {
                break;  // the connection is gone: no answer is left to read
            }
            continue;
        }
        const size_t floor = answerFloor(mysql);
        sent.cached->answerBytes = sent.cached->answerBytes == 0 ? floor : std::min(sent.cached->answerBytes, floor);
        affected[sent.index] += affectedRows(statement);
    }
    inFlight_.clear();
}

void DmlExecutor::executeAll(std::span<const DmlStatement> statements, std::vector<uint64_t>& affected) {
    affected.assign(statements.size(), 0);
    std::optional<std::pair<size_t, Failure>> failure;
    inFlight_.clear();
    for (size_t i = 0; i < statements.size() && !failure; ++i) {
        const DmlStatement& statement = statements[i];
        bool settingChanges = statement.foreignKeyChecks.value_or(sessionForeignKeyChecks_) != currentForeignKeyChecks_;
        // What must be asked of the server and answered first (a SET, a PREPARE, a statement that needs its
        // own answer) waits for the answers already in flight: they come in the order sent.
        if (needsItsAnswer(statement) || settingChanges || !isCached(statement.sql) ||
            inFlight_.size() >= kMaxInFlight) {
            readAnswers(affected, failure);
            if (failure) {
                break;
            }
        }
        if (needsItsAnswer(statement)) {
            affected[i] = execute(statement);
            continue;
        }
        try {
            applyForeignKeyChecks(statement);
            send(statement, i, false);
        } catch (const Failure& sendFailure) {
            // Not sent (a PREPARE refused, the connection gone): the answers already in flight come first.
            readAnswers(affected, failure);
            if (!failure) {
                failure.emplace(i, sendFailure);
            }
        } catch (const DownstreamError&) {
            readAnswers(affected, failure);
            throw;
        }
    }
    readAnswers(affected, failure);
    if (failure) {
        throw errorFrom(failure->second, statements[failure->first].describe());
    }
}

bool DmlExecutor::moveOverLaterRow(const DmlStatement& move) {
    static const std::string kSavepoint = "syncscope_replayed_key_move";
    executeText("SAVEPOINT " + kSavepoint);
    try {
        uint64_t cleared = 0;
        for (const DmlStatement& clear : move.clearNewKey) {
            cleared += run(clear);
        }
        run(move);
        executeText("RELEASE SAVEPOINT " + kSavepoint);
        spdlog::info(
            "safe mode: a replayed key move of a cascading parent row found its new key held by a later row "
            "(applied before the restart, replayed after this); that row was deleted without cascading ({} "
            "row) and the move applied, so that the old key does not stay behind: {}",
            cleared, move.describe());
        return true;
    } catch (const Failure& failure) {
        executeText("ROLLBACK TO SAVEPOINT " + kSavepoint);
        spdlog::info("safe mode: the replayed key move could not be applied over the later row either (error {}: {})",
                     failure.code, failure.message);
        return false;
    }
}

void DmlExecutor::commit() {
    ++roundTrips_;
    if (mysql_commit(connection_.get()) != 0) {
        throw errorFrom(connectionFailure(), "COMMIT");
    }
}

void DmlExecutor::rollback() {
    ++roundTrips_;
    if (mysql_rollback(connection_.get()) != 0) {
        throw errorFrom(connectionFailure(), "ROLLBACK");
    }
}

bool DmlExecutor::readForeignKeyChecks() {
    MYSQL* mysql = connection_.get();
    static const std::string kQuery = "SELECT @@SESSION.foreign_key_checks";
    ++roundTrips_;
    if (mysql_real_query(mysql, kQuery.data(), kQuery.size()) != 0) {
        throw errorFrom(connectionFailure(), "cannot read foreign_key_checks of the target session");
    }
    std::unique_ptr<MYSQL_RES, void (*)(MYSQL_RES*)> result(mysql_store_result(mysql), mysql_free_result);
    if (!result) {
        throw errorFrom(connectionFailure(), "cannot read foreign_key_checks of the target session");
    }
    MYSQL_ROW row = mysql_fetch_row(result.get());
    return row != nullptr && row[0] != nullptr && std::string(row[0]) != "0";
}

std::optional<uint64_t> DmlExecutor::readPurgeBacklog() {
    static const std::string kStatus = "SHOW GLOBAL STATUS LIKE 'Innodb_history_list_length'";
    static const std::string kMetrics =
        "SELECT NAME, `COUNT` FROM information_schema.INNODB_METRICS WHERE NAME = 'trx_rseg_history_len' AND "
        "STATUS = 'enabled'";
    MYSQL* mysql = connection_.get();
    while (purgeSource_ != PurgeSource::None) {
        const std::string& query = purgeSource_ == PurgeSource::Status ? kStatus : kMetrics;
        ++roundTrips_;
        if (mysql_real_query(mysql, query.data(), query.size()) != 0) {
            unsigned int code = mysql_errno(mysql);
            if (code >= CR_MIN_ERROR && code <= CR_MAX_ERROR) {
                return std::nullopt;  // the connection's: the next batch finds out and replaces it
            }
        } else {
            std::unique_ptr<MYSQL_RES, void (*)(MYSQL_RES*)> result(mysql_store_result(mysql), mysql_free_result);
            MYSQL_ROW row = result ? mysql_fetch_row(result.get()) : nullptr;
            uint64_t backlog = 0;
            if (row != nullptr && row[1] != nullptr) {
                const std::string_view text(row[1]);
                auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), backlog);
                if (error == std::errc() && end == text.data() + text.size()) {
                    return backlog;
                }
            }
        }
        spdlog::debug("downstream purge backlog: no answer to {} ({})", query,
                      mysql_errno(mysql) != 0 ? mysql_error(mysql) : "no row");
        purgeSource_ = purgeSource_ == PurgeSource::Status ? PurgeSource::Metrics : PurgeSource::None;
    }
    return std::nullopt;
}

void DmlExecutor::executeText(const std::string& sql) {
    MYSQL* mysql = connection_.get();
    ++roundTrips_;
    if (mysql_real_query(mysql, sql.data(), sql.size()) != 0) {
        throw errorFrom(connectionFailure(), sql);
    }
    if (MYSQL_RES* result = mysql_store_result(mysql)) {
        mysql_free_result(result);
    }
}

}  // namespace syncscope::apply
