#include "engine/load/chunk_copier.h"

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include "engine/apply/error_class.h"
#include "engine/load/literal_row_reader.h"
#include "engine/load/load_error.h"

namespace syncscope::load {

namespace {

constexpr int kDuplicateKey = 1062;  // ER_DUP_ENTRY

// Thrown by the row sink to leave the upstream stream early; caught in copy().
struct Interrupted {};

std::string columnList(const std::vector<std::string>& columns) {
    std::string text;
    for (const auto& column : columns) {
        text += (text.empty() ? "" : ", ") + TableName::quote(column);
    }
    return text;
}

}  // namespace

ChunkCopier::ChunkCopier(sql::Connection& downstream, const LoaderCheckpoint& checkpoint, std::string sourceId)
    : downstream_(downstream), checkpoint_(checkpoint), sourceId_(std::move(sourceId)) {
    try {
        std::unique_ptr<sql::Statement> statement(downstream_.createStatement());
        // As mariadb-dump's output sets them: a row keyed 0 stays 0, no referential check while tables
        // fill in any order, TIMESTAMP values in UTC on both sides.
        statement->execute(
            "SET SESSION sql_mode = 'NO_AUTO_VALUE_ON_ZERO', SESSION foreign_key_checks = 0, "
            "SESSION time_zone = '+00:00'");
        std::unique_ptr<sql::ResultSet> packet(statement->executeQuery("SELECT @@max_allowed_packet"));
        if (packet->next()) {
            size_t allowed = packet->getUInt64(1);
            statementLimit_ =
                std::min(kMaxInsertBytes, allowed > kPacketHeadroom ? allowed - kPacketHeadroom : allowed);
        }
    } catch (const sql::SQLException& e) {
        throw LoadError(std::string("load: preparing a target database session failed: ") + e.what() + " [" +
                            std::to_string(e.getErrorCode()) + "]",
                        apply::classifyDownstreamError(e.getErrorCode()) == apply::ErrorClass::Retryable);
    }
}

void ChunkCopier::execute(const std::string& sql, const LoadChunk& chunk) {
    try {
        std::unique_ptr<sql::Statement> statement(downstream_.createStatement());
        statement->execute(sql);
    } catch (const sql::SQLException& e) {
        std::string hint;
        if (e.getErrorCode() == kDuplicateKey) {
            hint =
                "; the target table already held this row before the load: a load fills empty tables (empty it, "
                "or start the task with task-mode incremental)";
        } else if (std::string hintText = apply::hintForDownstreamError(e.getErrorCode()); !hintText.empty()) {
            hint = "; " + hintText;
        }
        throw LoadError("load: chunk " + chunk.name + " into " + chunk.target.quoted() + ": " + e.what() + " [" +
                            std::to_string(e.getErrorCode()) + "]" + hint + " (" + sql.substr(0, 200) +
                            (sql.size() > 200 ? "...)" : ")"),
                        apply::classifyDownstreamError(e.getErrorCode()) == apply::ErrorClass::Retryable);
    }
}

void ChunkCopier::rollback() {
    try {
        downstream_.rollback();
        downstream_.setAutoCommit(true);
    } catch (const sql::SQLException&) {
        // The connection is gone, and the transaction with it.
    }
}

bool ChunkCopier::copy(source::UpstreamConnection& upstream, const LoadTable& table, LoadChunk& chunk,
                       const binlog::Location& snapshotPoint, const std::atomic<bool>& interrupt,
                       LoadProgress& progress) {
    const std::string head = "INSERT INTO " + chunk.target.quoted() + " (" + columnList(table.columns) + ") VALUES ";
    const std::string select = "SELECT " + columnList(table.columns) + " FROM " + table.upstream.quoted() + " WHERE " +
                               chunkCondition(chunk) +
                               (chunk.keyColumns.empty() ? "" : " ORDER BY " + columnList(chunk.keyColumns));
    std::string statement = head;
    uint64_t rows = 0;
    uint64_t bytes = 0;
    uint64_t pendingRows = 0;
    uint64_t pendingBytes = 0;
    auto flush = [&] {
        if (pendingRows == 0) {
            return;
        }
        execute(statement, chunk);
        progress.rowsCopied(chunk, pendingRows, pendingBytes);
        rows += pendingRows;
        bytes += pendingBytes;
        pendingRows = 0;
        pendingBytes = 0;
        statement.resize(head.size());
    };

    progress.chunkStarted(chunk);
    try {
        downstream_.setAutoCommit(false);
        streamLiteralRows(upstream, select, [&](const std::string& tuple, uint64_t valueBytes) {
            if (head.size() + tuple.size() > statementLimit_) {
                throw LoadError("load: chunk " + chunk.name + ": a row of " + table.upstream.quoted() + " takes " +
                                std::to_string(tuple.size()) + " bytes as SQL, more than the " +
                                std::to_string(statementLimit_) +
                                " bytes the target database's max_allowed_packet lets one statement have; raise "
                                "max_allowed_packet on the target database");
            }
            if (statement.size() + tuple.size() + 1 > statementLimit_) {
                if (interrupt) {
                    throw Interrupted{};
                }
                flush();
            }
            if (pendingRows != 0) {
                statement += ',';
            }
            statement += tuple;
            ++pendingRows;
            pendingBytes += valueBytes;
        });
        if (interrupt) {
            throw Interrupted{};
        }
        flush();
        chunk.rowsDone = rows;
        chunk.bytesDone = bytes;
        chunk.loadedAt = snapshotPoint;
        checkpoint_.markDoneInTransaction(downstream_, sourceId_, chunk);
        downstream_.commit();
        downstream_.setAutoCommit(true);
        chunk.done = true;
    } catch (const Interrupted&) {
        rollback();
        progress.chunkEnded(chunk, false, rows, bytes);
        return false;
    } catch (const source::UpstreamError& e) {
        rollback();
        progress.chunkEnded(chunk, false, rows, bytes);
        throw LoadError("load: chunk " + chunk.name + ": reading " + table.upstream.quoted() + " failed: " + e.what(),
                        apply::classifyDownstreamError(static_cast<int>(e.code())) == apply::ErrorClass::Retryable);
    } catch (const sql::SQLException& e) {
        rollback();
        progress.chunkEnded(chunk, false, rows, bytes);
        throw LoadError("load: chunk " + chunk.name + ": committing into " + chunk.target.quoted() +
                            " failed: " + e.what() + " [" + std::to_string(e.getErrorCode()) + "]",
                        apply::classifyDownstreamError(e.getErrorCode()) == apply::ErrorClass::Retryable);
    } catch (...) {
        rollback();
        progress.chunkEnded(chunk, false, rows, bytes);
        throw;
    }
    progress.chunkEnded(chunk, true, rows, bytes);
    return true;
}

}  // namespace syncscope::load
