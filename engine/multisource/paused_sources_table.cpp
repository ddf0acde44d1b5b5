#include "engine/multisource/paused_sources_table.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/prepared_statement.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include <iterator>
#include <memory>

#include "engine/apply/downstream_connection.h"
#include "engine/apply/error_class.h"
#include "engine/apply/quoted_name.h"
#include "engine/common/server_errors.h"
#include "engine/multisource/multi_source_plan.h"

namespace syncscope::multisource {

namespace {

// id as wide as the checkpoint table's (DM's VARCHAR(32)).
constexpr const char* kColumnDefinitions =
    " (\n"
    "  source_id VARCHAR(32) NOT NULL PRIMARY KEY,\n"
    "  paused_since VARCHAR(32) NOT NULL,\n"
    "  update_time timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP\n"
    ")";

constexpr const char* kNothingStarted = "; nothing was started (a paused source must not start on a guess)";

bool retryable(int code) {
    return apply::classifyDownstreamError(code) == apply::ErrorClass::Retryable;
}

}  // namespace

PausedSourcesTable::PausedSourcesTable(ServerSettings downstream, std::string metaSchema, std::string taskName)
    : downstream_(std::move(downstream)),
      metaSchema_(std::move(metaSchema)),
      taskName_(std::move(taskName)),
      qualifiedName_(apply::quoteName(metaSchema_) + "." + apply::quoteName(taskName_ + kTableSuffix)) {}

std::string PausedSourcesTable::describe() const {
    return qualifiedName_ + " on " + downstream_.describe();
}

std::map<std::string, std::string> PausedSourcesTable::read() const {
    const std::string query = "SELECT source_id, paused_since FROM " + qualifiedName_;
    std::map<std::string, std::string> paused;
    try {
        std::unique_ptr<sql::Connection> connection = apply::connectDownstream(downstream_);
        std::unique_ptr<sql::Statement> select(connection->createStatement());
        std::unique_ptr<sql::ResultSet> rows(select->executeQuery(query));
        while (rows->next()) {
            paused[std::string(rows->getString(1))] = std::string(rows->getString(2));
        }
    } catch (const sql::SQLException& e) {
        if (e.getErrorCode() == server_error::kNoSuchTable || e.getErrorCode() == server_error::kUnknownDatabase) {
            return {};
        }
        throw PausedSourcesUnreadable("cannot read which sources the DBA paused from " + describe() + " (" + query +
                                          "): error " + std::to_string(e.getErrorCode()) + ": " + e.what() +
                                          kNothingStarted,
                                      retryable(e.getErrorCode()));
    } catch (const apply::DownstreamError& e) {
        throw PausedSourcesUnreadable(
            "cannot read which sources the DBA paused from " + describe() + ": " + e.what() + kNothingStarted,
            retryable(e.code()));
    } catch (const std::exception& e) {
        throw PausedSourcesUnreadable(
            "cannot read which sources the DBA paused from " + describe() + ": " + e.what() + kNothingStarted, false);
    }
    return paused;
}

void PausedSourcesTable::remember(const std::string& sourceId, const std::string& since) const {
    const std::string statements[] = {"CREATE SCHEMA IF NOT EXISTS " + apply::quoteName(metaSchema_),
                                      "CREATE TABLE IF NOT EXISTS " + qualifiedName_ + kColumnDefinitions,
                                      "INSERT INTO " + qualifiedName_ +
                                          " (source_id, paused_since) VALUES (?, ?) ON DUPLICATE KEY UPDATE "
                                          "paused_since = paused_since"};
    std::string current;
    try {
        std::unique_ptr<sql::Connection> connection = apply::connectDownstream(downstream_);
        for (size_t i = 0; i + 1 < std::size(statements); ++i) {
            current = statements[i];
            std::unique_ptr<sql::Statement> run(connection->createStatement());
            run->execute(current);
        }
        current = statements[std::size(statements) - 1];
        std::unique_ptr<sql::PreparedStatement> insert(connection->prepareStatement(current));
        insert->setString(1, sourceId);
        insert->setString(2, since);
        insert->executeUpdate();
    } catch (const std::exception& e) {
        throw Error("cannot write the pause of source '" + sourceId + "' to " + describe() +
                    (current.empty() ? std::string() : " (" + current + ")") + ": " + e.what());
    }
}

void PausedSourcesTable::forget(const std::string& sourceId) const {
    const std::string statement = "DELETE FROM " + qualifiedName_ + " WHERE source_id = ?";
    try {
        std::unique_ptr<sql::Connection> connection = apply::connectDownstream(downstream_);
        std::unique_ptr<sql::PreparedStatement> remove(connection->prepareStatement(statement));
        remove->setString(1, sourceId);
        remove->executeUpdate();
    } catch (const sql::SQLException& e) {
        if (e.getErrorCode() == server_error::kNoSuchTable || e.getErrorCode() == server_error::kUnknownDatabase) {
            return;  // nothing was remembered there
        }
        throw Error("cannot remove the pause of source '" + sourceId + "' from " + describe() + " (" + statement +
                    "): error " + std::to_string(e.getErrorCode()) + ": " + e.what());
    } catch (const std::exception& e) {
        throw Error("cannot remove the pause of source '" + sourceId + "' from " + describe() + ": " + e.what());
    }
}

}  // namespace syncscope::multisource
