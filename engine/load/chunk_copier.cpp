#include "engine/load/chunk_copier.h"

#include <spdlog/spdlog.h>

#include <cstring>

#include "engine/apply/downstream_connection.h"
#include "engine/apply/error_class.h"
#include "engine/load/bulk_insert.h"
#include "engine/load/literal_row_reader.h"
#include "engine/load/load_error.h"
#include "engine/load/row_batch.h"
#include "engine/load/snapshot_ddl.h"

namespace syncscope::load {

namespace {

constexpr int kDuplicateKey = 1062;  // ER_DUP_ENTRY
// A LOAD DATA stream reports its progress after about this many bytes of values.
constexpr uint64_t kProgressStepBytes = 1024 * 1024;
// How much of a failed statement an error message quotes.
constexpr size_t kQuotedSqlChars = 200;

// Thrown to leave the upstream stream early (pause, stop); caught in copy().
struct Interrupted {};

std::string columnList(const std::vector<std::string>& columns) {
    std::string text;
    for (const auto& column : columns) {
        text += (text.empty() ? "" : ", ") + TableName::quote(column);
    }
    return text;
}

std::string quoted(const std::string& sql) {
    return sql.size() > kQuotedSqlChars ? sql.substr(0, kQuotedSqlChars) + "..." : sql;
}

bool retryable(int code) {
    return code != 0 && apply::classifyDownstreamError(code) == apply::ErrorClass::Retryable;
}

std::string duplicateHint() {
    return "the target table already held this row before the load: a load fills empty tables (empty it, start "
           "the task with task-mode incremental, or let the upstream's row win with loaders.<name>.on-duplicate-"
           "logical: replace)";
}

}  // namespace

std::optional<LoadMethod> loadMethodNamed(const std::string& name) {
    if (name == "load-data") {
        return LoadMethod::LoadData;
    }
    if (name == "insert") {
        return LoadMethod::Insert;
    }
    if (name == "prepared") {
        return LoadMethod::Prepared;
    }
    return std::nullopt;
}

const char* loadMethodName(LoadMethod method) {
    switch (method) {
        case LoadMethod::LoadData:
            return "load-data";
        case LoadMethod::Prepared:
            return "prepared";
        case LoadMethod::Insert:
            break;
    }
    return "insert";
}

std::optional<DuplicateRule> duplicateRuleNamed(const std::string& name) {
    for (DuplicateRule rule : {DuplicateRule::Error, DuplicateRule::Replace, DuplicateRule::Ignore}) {
        if (name == duplicateRuleName(rule)) {
            return rule;
        }
    }
    return std::nullopt;
}

const char* duplicateRuleName(DuplicateRule rule) {
    switch (rule) {
        case DuplicateRule::Replace:
            return "replace";
        case DuplicateRule::Ignore:
            return "ignore";
        case DuplicateRule::Error:
            break;
    }
    return "error";
}

ChunkCopier::ChunkCopier(TargetSession& downstream, const LoaderCheckpoint& checkpoint, std::string sourceId,
                         const CopyOptions& options)
    : downstream_(downstream), checkpoint_(checkpoint), sourceId_(std::move(sourceId)), options_(options) {
    try {
        size_t allowed = std::stoull(downstream_.queryValue("SELECT @@max_allowed_packet"));
        packetLimit_ = allowed > kPacketHeadroom ? allowed - kPacketHeadroom : allowed;
        statementLimit_ = std::min(std::max<size_t>(1, options_.statementBytes), packetLimit_);
        if (options_.method == LoadMethod::Prepared && !BulkInsert::supported(downstream_)) {
            spdlog::info(
                "load: the target database {} does not take bulk execution of prepared statements: "
                "multi-row INSERTs instead",
                downstream_.settings().describe());
            options_.method = LoadMethod::Insert;
        }
    } catch (const apply::DownstreamError& e) {
        throw LoadError(std::string("load: preparing a target database session failed: ") + e.what(),
                        retryable(e.code()));
    }
}

std::string ChunkCopier::insertVerb() const {
    switch (options_.onDuplicate) {
        case DuplicateRule::Replace:
            return "REPLACE INTO ";
        case DuplicateRule::Ignore:
            return "INSERT IGNORE INTO ";
        case DuplicateRule::Error:
            break;
    }
    return "INSERT INTO ";
}

void ChunkCopier::execute(const std::string& sql, const LoadChunk& chunk) {
    try {
        downstream_.execute(sql);
    } catch (const apply::DownstreamError& e) {
        std::string hint = e.code() == kDuplicateKey ? "; " + duplicateHint() : std::string();
        throw LoadError("load: chunk " + chunk.name + " into " + chunk.target.quoted() + ": " + e.what() + hint + " (" +
                            quoted(sql) + ")",
                        retryable(e.code()));
    }
}

void ChunkCopier::insertRows(source::UpstreamConnection& upstream, const std::string& select, const LoadTable& table,
                             LoadChunk& chunk, const std::atomic<bool>& interrupt, LoadProgress& progress,
                             Copied& copied) {
    const std::string head = insertVerb() + chunk.target.quoted() + " (" + columnList(table.columns) + ") VALUES ";
    std::string statement = head;  // being filled
    std::string sending;           // in flight on the sender's thread
    uint64_t pendingRows = 0;
    uint64_t pendingBytes = 0;
    SettleOnExit settle(sender_);  // before `sending` goes, and before copy() rolls back on this session
    auto flush = [&] {
        if (pendingRows == 0) {
            return;
        }
        sender_.wait();
        std::swap(statement, sending);
        statement.assign(head);
        sender_.send([this, &sending, &chunk, &progress, &copied, rows = pendingRows, bytes = pendingBytes] {
            execute(sending, chunk);
            progress.rowsCopied(chunk, rows, bytes);
            copied.rows += rows;
            copied.bytes += bytes;
        });
        pendingRows = 0;
        pendingBytes = 0;
    };
    streamLiteralRows(upstream, select, [&](const std::string& tuple, uint64_t valueBytes) {
        if (head.size() + tuple.size() > packetLimit_) {
            throw LoadError("load: chunk " + chunk.name + ": a row of " + table.upstream.quoted() + " takes " +
                            std::to_string(tuple.size()) + " bytes as SQL, more than the " +
                            std::to_string(packetLimit_) +
                            " bytes the target database's max_allowed_packet lets one statement have; raise "
                            "max_allowed_packet on the target database");
        }
        // Rows join a statement up to statementLimit_; a larger row goes alone (up to packetLimit_).
        if (pendingRows != 0 && statement.size() + tuple.size() + 1 > statementLimit_) {
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
    sender_.wait();
}

void ChunkCopier::preparedRows(source::UpstreamConnection& upstream, const std::string& select, const LoadTable& table,
                               LoadChunk& chunk, const std::atomic<bool>& interrupt, LoadProgress& progress,
                               Copied& copied) {
    UpstreamRowCursor cursor(upstream, select);
    std::vector<bool> binary(cursor.columnCount());
    std::string placeholders;
    for (size_t i = 0; i < binary.size(); ++i) {
        binary[i] = cursor.binaryColumn(i);
        placeholders += i == 0 ? "?" : ", ?";
    }
    const std::string sql = std::string(insertVerb()) + chunk.target.quoted() + " (" + columnList(table.columns) +
                            ") VALUES (" + placeholders + ")";
    BulkInsert statement(downstream_, sql, std::move(binary));
    RowBatch filling(cursor.columnCount());
    RowBatch sending(cursor.columnCount());  // in flight on the sender's thread
    SettleOnExit settle(sender_);            // before the statement and the batches go, and before the rollback
    auto flush = [&] {
        if (filling.rows() == 0) {
            return;
        }
        sender_.wait();
        std::swap(filling, sending);
        filling.clear();
        sender_.send([&statement, &sending, &chunk, &progress, &copied] {
            try {
                statement.execute(sending);
            } catch (const apply::DownstreamError& e) {
                std::string hint = e.code() == kDuplicateKey ? "; " + duplicateHint() : std::string();
                throw LoadError("load: chunk " + chunk.name + " into " + chunk.target.quoted() + ": " + e.what() + hint,
                                retryable(e.code()));
            }
            progress.rowsCopied(chunk, sending.rows(), sending.valueBytes());
            copied.rows += sending.rows();
            copied.bytes += sending.valueBytes();
        });
    };
    while (cursor.next()) {
        size_t rowBytes = 0;
        for (size_t i = 0; i < cursor.columnCount(); ++i) {
            rowBytes += cursor.values()[i] != nullptr ? cursor.lengths()[i] : 0;
        }
        if (rowBytes > packetLimit_) {
            throw LoadError("load: chunk " + chunk.name + ": a row of " + table.upstream.quoted() + " takes " +
                            std::to_string(rowBytes) + " bytes, more than the " + std::to_string(packetLimit_) +
                            " bytes the target database's max_allowed_packet lets one statement have; raise "
                            "max_allowed_packet on the target database");
        }
        // Rows join a batch up to statementLimit_; a larger row goes alone (up to packetLimit_).
        if (filling.rows() != 0 && filling.wireBytes() + rowBytes > statementLimit_) {
            if (interrupt) {
                throw Interrupted{};
            }
            flush();
        }
        filling.add(cursor.values(), cursor.lengths());
    }
    if (interrupt) {
        throw Interrupted{};
    }
    flush();
    sender_.wait();
}

void ChunkCopier::loadDataRows(source::UpstreamConnection& upstream, const std::string& select, const LoadTable& table,
                               LoadChunk& chunk, const std::atomic<bool>& interrupt, LoadProgress& progress,
                               Copied& copied) {
    UpstreamRowCursor cursor(upstream, select);
    // Binary values travel as hex (a raw byte could pass for part of a multibyte character and hide a
    // separator) into a user variable, and UNHEX puts them in place. With such a SET clause MariaDB
    // 10.11 gives an AUTO_INCREMENT column read directly a new value for 0 despite NO_AUTO_VALUE_ON_ZERO;
    // through a variable of its own it keeps the 0.
    bool anyBinary = false;
    for (size_t i = 0; i < table.columns.size(); ++i) {
        anyBinary = anyBinary || cursor.binaryColumn(i);
    }
    std::string targets;
    std::string assignments;
    for (size_t i = 0; i < table.columns.size(); ++i) {
        std::string column = TableName::quote(table.columns[i]);
        std::string variable = "@v" + std::to_string(i);
        bool binary = cursor.binaryColumn(i);
        if (binary || (anyBinary && cursor.autoIncrementColumn(i))) {
            targets += (targets.empty() ? "" : ", ") + variable;
            assignments += (assignments.empty() ? " SET " : ", ") + column + " = " +
                           (binary ? "UNHEX(" + variable + ")" : variable);
        } else {
            targets += (targets.empty() ? "" : ", ") + column;
        }
    }
    // LOAD DATA LOCAL skips a duplicate with a warning unless told REPLACE; IGNORE says so explicitly.
    const char* duplicates = options_.onDuplicate == DuplicateRule::Replace  ? " REPLACE"
                             : options_.onDuplicate == DuplicateRule::Ignore ? " IGNORE"
                                                                             : "";
    const std::string sql = "LOAD DATA LOCAL INFILE '" + chunk.name + "'" + duplicates + " INTO TABLE " +
                            chunk.target.quoted() +
                            " CHARACTER SET utf8mb4 FIELDS TERMINATED BY '\\t' ESCAPED BY '\\\\' LINES TERMINATED BY "
                            "'\\n' (" +
                            targets + ")" + assignments;
    std::string pending;
    uint64_t unreportedRows = 0;
    uint64_t unreportedBytes = 0;
    auto feed = [&](char* buffer, size_t capacity) -> size_t {
        while (pending.size() < capacity) {
            if (interrupt) {
                throw Interrupted{};
            }
            if (!cursor.next()) {
                break;
            }
            unreportedBytes += cursor.appendLoadDataLine(pending);
            ++unreportedRows;
        }
        if (unreportedBytes >= kProgressStepBytes) {
            progress.rowsCopied(chunk, unreportedRows, unreportedBytes);
            copied.rows += unreportedRows;
            copied.bytes += unreportedBytes;
            unreportedRows = 0;
            unreportedBytes = 0;
        }
        size_t taken = std::min(capacity, pending.size());
        std::memcpy(buffer, pending.data(), taken);
        pending.erase(0, taken);
        return taken;
    };
    LoadDataOutcome outcome;
    try {
        outcome = downstream_.loadData(sql, feed);
    } catch (const apply::DownstreamError& e) {
        std::string hint = e.code() == kDuplicateKey ? "; " + duplicateHint() : std::string();
        throw LoadError("load: chunk " + chunk.name + " into " + chunk.target.quoted() + ": " + e.what() + hint,
                        retryable(e.code()));
    }
    progress.rowsCopied(chunk, unreportedRows, unreportedBytes);
    copied.rows += unreportedRows;
    copied.bytes += unreportedBytes;
    if (outcome.skipped > 0 && options_.onDuplicate == DuplicateRule::Error) {
        throw LoadError("load: chunk " + chunk.name + " into " + chunk.target.quoted() + ": " +
                        std::to_string(outcome.skipped) + " of " + std::to_string(copied.rows) +
                        " rows were skipped as duplicates of a unique key (LOAD DATA LOCAL only warns); " +
                        duplicateHint());
    }
    if (outcome.records != copied.rows) {
        throw LoadError("load: chunk " + chunk.name + " into " + chunk.target.quoted() + ": the target database took " +
                        std::to_string(outcome.records) + " rows of the " + std::to_string(copied.rows) + " sent");
    }
    if (outcome.warnings > outcome.skipped) {  // each skipped duplicate (IGNORE) is a warning of its own
        spdlog::warn("load: chunk {} into {}: the target database gave {} warnings (values adjusted to the column)",
                     chunk.name, chunk.target.quoted(), outcome.warnings - outcome.skipped);
    }
}

bool ChunkCopier::copy(source::UpstreamConnection& upstream, const LoadTable& table, LoadChunk& chunk,
                       const binlog::Location& snapshotPoint, const std::atomic<bool>& interrupt,
                       LoadProgress& progress) {
    const std::string select = "SELECT " + columnList(table.columns) + " FROM " + table.upstream.quoted() + " WHERE " +
                               chunkCondition(chunk) +
                               (chunk.keyColumns.empty() ? "" : " ORDER BY " + columnList(chunk.keyColumns));
    Copied copied;
    progress.chunkStarted(chunk);
    try {
        execute("START TRANSACTION", chunk);
        if (options_.method == LoadMethod::LoadData) {
            loadDataRows(upstream, select, table, chunk, interrupt, progress, copied);
        } else if (options_.method == LoadMethod::Prepared) {
            preparedRows(upstream, select, table, chunk, interrupt, progress, copied);
        } else {
            insertRows(upstream, select, table, chunk, interrupt, progress, copied);
        }
        if (interrupt) {
            throw Interrupted{};
        }
        chunk.rowsDone = copied.rows;
        chunk.bytesDone = copied.bytes;
        chunk.loadedAt = snapshotPoint;
        if (downstream_.execute(checkpoint_.markDoneStatement(sourceId_, chunk)) != 1) {
            throw LoadError("loader checkpoint " + checkpoint_.qualifiedName() + ": the row of chunk " + chunk.name +
                            " is missing (was the plan removed while the load ran?)");
        }
        downstream_.commit();
        chunk.done = true;
    } catch (const Interrupted&) {
        downstream_.rollback();
        progress.chunkEnded(chunk, false, copied.rows, copied.bytes);
        return false;
    } catch (const source::UpstreamError& e) {
        downstream_.rollback();
        progress.chunkEnded(chunk, false, copied.rows, copied.bytes);
        if (changedAfterSnapshot(e.code())) {
            throw changedAfterSnapshotError(table.upstream, snapshotPoint, "chunk " + chunk.name, e.what());
        }
        throw LoadError("load: chunk " + chunk.name + ": reading " + table.upstream.quoted() + " failed: " + e.what(),
                        retryable(static_cast<int>(e.code())));
    } catch (const apply::DownstreamError& e) {
        downstream_.rollback();
        progress.chunkEnded(chunk, false, copied.rows, copied.bytes);
        throw LoadError(
            "load: chunk " + chunk.name + ": committing into " + chunk.target.quoted() + " failed: " + e.what(),
            retryable(e.code()));
    } catch (...) {
        downstream_.rollback();
        progress.chunkEnded(chunk, false, copied.rows, copied.bytes);
        throw;
    }
    progress.chunkEnded(chunk, true, copied.rows, copied.bytes);
    return true;
}

}  // namespace syncscope::load
