#include "engine/load/target_session.h"

// clang-format off
#include <mysql.h>
#include <errmsg.h>
// clang-format on

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <exception>

#include "engine/apply/downstream_connection.h"
#include "engine/apply/error_class.h"

namespace syncscope::load {

namespace {

// As mariadb-dump's output sets them: a row keyed 0 stays 0, no referential check while tables fill
// in any order, TIMESTAMP values in UTC on both sides.
constexpr const char* kLoadSessionSettings =
    "SET SESSION sql_mode = 'NO_AUTO_VALUE_ON_ZERO', SESSION foreign_key_checks = 0, SESSION time_zone = '+00:00'";
constexpr int kInterruptedFeed = 2000;  // CR_UNKNOWN_ERROR: the feed threw; the exception says why

// The context of one LOAD DATA LOCAL statement, handed to Connector/C's callbacks.
struct FeedContext {
    const LoadDataFeed* feed = nullptr;
    std::exception_ptr failure;
};

int feedInit(void** context, const char* /*filename*/, void* userdata) {
    *context = userdata;
    return 0;
}

int feedRead(void* context, char* buffer, unsigned int capacity) {
    auto* feed = static_cast<FeedContext*>(context);
    try {
        return static_cast<int>((*feed->feed)(buffer, capacity));
    } catch (...) {
        feed->failure = std::current_exception();
        return -1;
    }
}

void feedEnd(void* /*context*/) {}

int feedError(void* /*context*/, char* message, unsigned int capacity) {
    std::snprintf(message, capacity, "the load's row stream ended early");
    return kInterruptedFeed;
}

}  // namespace

TargetSession::TargetSession(const ServerSettings& settings)
    : settings_(settings), mysql_(apply::connectDownstreamNative(settings, {.foundRows = false, .localInfile = true})) {
    execute(kLoadSessionSettings);
}

TargetSession::~TargetSession() = default;

void TargetSession::fail(const std::string& what, const std::string& sql) const {
    MYSQL* m = mysql_.get();
    int code = static_cast<int>(mysql_errno(m));
    std::string message = "target database " + settings_.describe() + ": " + what + ": " + mysql_error(m) + " [" +
                          std::to_string(code) + "]";
    if (std::string hint = apply::hintForDownstreamError(code); !hint.empty()) {
        message += "; " + hint;
    }
    throw apply::DownstreamError(message, code, mysql_error(m), sql);
}

uint64_t TargetSession::execute(const std::string& sql) {
    MYSQL* m = mysql_.get();
    if (mysql_real_query(m, sql.data(), sql.size()) != 0) {
        fail("statement failed", sql);
    }
    if (MYSQL_RES* result = mysql_store_result(m)) {
        mysql_free_result(result);
    }
    return mysql_affected_rows(m);
}

std::string TargetSession::queryValue(const std::string& sql) {
    MYSQL* m = mysql_.get();
    if (mysql_real_query(m, sql.data(), sql.size()) != 0) {
        fail("query failed", sql);
    }
    std::unique_ptr<MYSQL_RES, void (*)(MYSQL_RES*)> result(mysql_store_result(m), mysql_free_result);
    if (!result) {
        fail("reading the result failed", sql);
    }
    MYSQL_ROW row = mysql_fetch_row(result.get());
    return row != nullptr && row[0] != nullptr ? std::string(row[0]) : std::string();
}

LoadDataOutcome TargetSession::loadData(const std::string& sql, const LoadDataFeed& feed) {
    MYSQL* m = mysql_.get();
    FeedContext context{&feed, nullptr};
    mysql_set_local_infile_handler(m, feedInit, feedRead, feedEnd, feedError, &context);
    int status = mysql_real_query(m, sql.data(), sql.size());
    mysql_set_local_infile_default(m);
    if (context.failure) {
        std::rethrow_exception(context.failure);
    }
    if (status != 0) {
        fail("LOAD DATA failed", sql.substr(0, sql.find(" FIELDS")));
    }
    LoadDataOutcome outcome;
    if (const char* info = mysql_info(m)) {
        uint64_t deleted = 0;
        std::sscanf(info, "Records: %" SCNu64 " Deleted: %" SCNu64 " Skipped: %" SCNu64 " Warnings: %" SCNu64,
                    &outcome.records, &deleted, &outcome.skipped, &outcome.warnings);
    }
    return outcome;
}

void TargetSession::begin() {
    execute("START TRANSACTION");
}

void TargetSession::commit() {
    if (mysql_commit(mysql_.get()) != 0) {
        fail("COMMIT failed", "COMMIT");
    }
}

void TargetSession::rollback() noexcept {
    mysql_rollback(mysql_.get());
}

}  // namespace syncscope::load
