#include "engine/apply/dml_executor.h"

#include <cppconn/connection.h>
#include <cppconn/datatype.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include <spdlog/spdlog.h>

#include "engine/apply/downstream_connection.h"
#include "engine/apply/sql_value_binding.h"
#include "engine/common/server_errors.h"

namespace syncscope::apply {

struct DmlExecutor::CachedStatement {
    std::unique_ptr<sql::PreparedStatement> statement;
    std::list<std::string>::iterator usePosition;
    size_t parameters = 0;
};

namespace {

DownstreamError errorFrom(const sql::SQLException& e, const std::string& what) {
    return DownstreamError(what + ": " + e.what() + " [" + std::to_string(e.getErrorCode()) + "]", e.getErrorCode(),
                           e.what(), what);
}

// The errors by which a replayed cascading key move finds the downstream past it (DmlStatement).
bool downstreamIsPast(int code) {
    return code == server_error::kDuplicateEntry || code == server_error::kRowIsReferenced ||
           code == server_error::kForeignDuplicateWithChild || code == server_error::kForeignDuplicateWithoutChild;
}

}  // namespace

DmlExecutor::DmlExecutor(std::unique_ptr<sql::Connection> connection, size_t statementCacheSize)
    : connection_(std::move(connection)), cacheSize_(statementCacheSize == 0 ? 1 : statementCacheSize) {
    try {
        connection_->setAutoCommit(false);
    } catch (const sql::SQLException& e) {
        throw errorFrom(e, "cannot turn autocommit off on the downstream connection");
    }
}

DmlExecutor::~DmlExecutor() {
    // Statements first: they belong to the connection.
    cache_.clear();
}

sql::PreparedStatement& DmlExecutor::prepared(const std::string& sql, size_t parameters) {
    auto it = cache_.find(sql);
    if (it != cache_.end()) {
        recentlyUsed_.splice(recentlyUsed_.begin(), recentlyUsed_, it->second->usePosition);
        return *it->second->statement;
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
    entry->statement.reset(connection_->prepareStatement(sql));
    entry->parameters = parameters;
    recentlyUsed_.push_front(sql);
    entry->usePosition = recentlyUsed_.begin();
    auto& statement = *entry->statement;
    cache_.emplace(sql, std::move(entry));
    cachedParameters_ += parameters;
    return statement;
}

uint64_t DmlExecutor::run(const DmlStatement& statement) {
    bool foreignKeyChecks = statement.foreignKeyChecks.value_or(sessionForeignKeyChecks_);
    if (foreignKeyChecks != currentForeignKeyChecks_) {
        executeText(foreignKeyChecks ? "SET SESSION foreign_key_checks = 1" : "SET SESSION foreign_key_checks = 0");
        currentForeignKeyChecks_ = foreignKeyChecks;
    }
    blobs_.clear();
    sql::PreparedStatement& prepared = this->prepared(statement.sql, statement.params.size());
    for (size_t i = 0; i < statement.params.size(); ++i) {
        bindSqlValue(prepared, static_cast<unsigned int>(i + 1), *statement.params[i], blobs_);
    }
    int affected = prepared.executeUpdate();
    blobs_.clear();
    return affected < 0 ? 0 : static_cast<uint64_t>(affected);
}

uint64_t DmlExecutor::execute(const DmlStatement& statement) {
    try {
        uint64_t found = run(statement);
        if (found == 0 && !statement.insertWhenUnmatched.empty()) {
            uint64_t inserted = 0;
            for (const DmlStatement& insert : statement.insertWhenUnmatched) {
                try {
                    inserted += run(insert);
                } catch (const sql::SQLException& e) {
                    blobs_.clear();
                    throw errorFrom(e, insert.describe());
                }
            }
            return inserted;
        }
        return found;
    } catch (const sql::SQLException& e) {
        blobs_.clear();
        if (statement.dropIfParentMissing && e.getErrorCode() == server_error::kNoReferencedRow) {
            // InnoDB rolled back this statement only; the transaction goes on without the orphan.
            spdlog::info(
                "safe mode: a replayed row is dropped, its parent row is gone downstream (a cascade "
                "already removed it): {}",
                statement.describe());
            return 0;
        }
        if (statement.skipWhenDownstreamIsPast && downstreamIsPast(e.getErrorCode())) {
            if (e.getErrorCode() == server_error::kDuplicateEntry && moveOverLaterRow(statement)) {
                return 1;
            }
            spdlog::info(
                "safe mode: a replayed key move of a cascading parent row is skipped, the downstream is past it "
                "(error {}: a later change holds the key or references the old one; the later changes are "
                "replayed after it): {}",
                e.getErrorCode(), statement.describe());
            return 0;
        }
        throw errorFrom(e, statement.describe());
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
    } catch (const sql::SQLException& e) {
        blobs_.clear();
        executeText("ROLLBACK TO SAVEPOINT " + kSavepoint);
        spdlog::info("safe mode: the replayed key move could not be applied over the later row either (error {}: {})",
                     e.getErrorCode(), e.what());
        return false;
    }
}

void DmlExecutor::commit() {
    try {
        connection_->commit();
    } catch (const sql::SQLException& e) {
        throw errorFrom(e, "COMMIT");
    }
}

void DmlExecutor::rollback() {
    try {
        connection_->rollback();
    } catch (const sql::SQLException& e) {
        throw errorFrom(e, "ROLLBACK");
    }
}

bool DmlExecutor::readForeignKeyChecks() {
    try {
        std::unique_ptr<sql::Statement> statement(connection_->createStatement());
        std::unique_ptr<sql::ResultSet> result(statement->executeQuery("SELECT @@SESSION.foreign_key_checks"));
        return result->next() && result->getInt(1) != 0;
    } catch (const sql::SQLException& e) {
        throw errorFrom(e, "cannot read foreign_key_checks of the target session");
    }
}

void DmlExecutor::executeText(const std::string& sql) {
    try {
        std::unique_ptr<sql::Statement> statement(connection_->createStatement());
        statement->execute(sql);
    } catch (const sql::SQLException& e) {
        throw errorFrom(e, sql);
    }
}

}  // namespace syncscope::apply
