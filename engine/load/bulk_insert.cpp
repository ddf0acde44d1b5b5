#include "engine/load/bulk_insert.h"

// clang-format off
#include <mysql.h>
// clang-format on

#include "engine/apply/downstream_connection.h"
#include "engine/load/row_batch.h"
#include "engine/load/target_session.h"

namespace syncscope::load {

namespace {

// RowBatch marks NULLs as MariaDB's indicators do, so that its arrays are bound as they are.
static_assert(STMT_INDICATOR_NONE == 0 && STMT_INDICATOR_NULL == 1);

[[noreturn]] void fail(TargetSession& session, MYSQL_STMT* statement, const std::string& what, const std::string& sql) {
    int code = static_cast<int>(mysql_stmt_errno(statement));
    std::string message = "target database " + session.settings().describe() + ": " + what + ": " +
                          mysql_stmt_error(statement) + " [" + std::to_string(code) + "]";
    throw apply::DownstreamError(message, code, mysql_stmt_error(statement), sql);
}

}  // namespace

bool BulkInsert::supported(TargetSession& session) {
    return apply::takesArrayBinding(session.handle());
}

BulkInsert::BulkInsert(TargetSession& session, const std::string& sql, std::vector<bool> binary)
    : session_(session), sql_(sql), binary_(std::move(binary)) {
    statement_ = mysql_stmt_init(session_.handle());
    if (statement_ == nullptr) {
        throw apply::DownstreamError(
            "target database " + session_.settings().describe() + ": out of memory creating a statement", 0);
    }
    if (!apply::takesArrayBinding(session_.handle())) {
        mysql_stmt_close(statement_);
        throw apply::DownstreamError("target database " + session_.settings().describe() +
                                         " does not take bulk execution of prepared statements (MariaDB 10.2 and "
                                         "later do): use the load method insert",
                                     0);
    }
    if (mysql_stmt_prepare(statement_, sql_.data(), sql_.size()) != 0) {
        std::string what = "preparing the INSERT failed";
        try {
            fail(session_, statement_, what, sql_);
        } catch (...) {
            mysql_stmt_close(statement_);
            throw;
        }
    }
}

BulkInsert::~BulkInsert() {
    mysql_stmt_close(statement_);
}

uint64_t BulkInsert::execute(const RowBatch& batch) {
    const size_t rows = batch.rows();
    if (rows == 0) {
        return 0;
    }
    const size_t columns = binary_.size();
    std::vector<MYSQL_BIND> binds(columns);
    for (size_t c = 0; c < columns; ++c) {
        MYSQL_BIND& bind = binds[c];
        bind = MYSQL_BIND{};
        bind.buffer_type = binary_[c] ? MYSQL_TYPE_BLOB : MYSQL_TYPE_STRING;
        // Column-wise array binding; Connector/C only reads through these pointers.
        bind.buffer = const_cast<const char**>(batch.values(c));
        bind.length = const_cast<unsigned long*>(batch.lengths(c));
        bind.u.indicator = const_cast<char*>(batch.nulls(c));
    }
    unsigned int arraySize = static_cast<unsigned int>(rows);
    if (mysql_stmt_attr_set(statement_, STMT_ATTR_ARRAY_SIZE, &arraySize) != 0 ||
        mysql_stmt_bind_param(statement_, binds.data()) != 0) {
        fail(session_, statement_, "binding " + std::to_string(rows) + " rows failed", sql_);
    }
    if (mysql_stmt_execute(statement_) != 0) {
        fail(session_, statement_, "inserting " + std::to_string(rows) + " rows failed", sql_);
    }
    return static_cast<uint64_t>(mysql_stmt_affected_rows(statement_));
}

}  // namespace syncscope::load
