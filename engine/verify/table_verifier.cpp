#include "engine/verify/table_verifier.h"

#include <algorithm>
#include <exception>
#include <future>
#include <iterator>
#include <span>
#include <thread>

#include "engine/verify/chunk_pacer.h"
#include "engine/verify/row_diff.h"

namespace syncscope::verify {

namespace {

using Clock = std::chrono::steady_clock;

struct ChunkChecksum {
    std::optional<std::string> count;
    std::optional<std::string> hash;
    bool operator==(const ChunkChecksum&) const = default;
};

ChunkChecksum checksumOf(ServerSession& session, const BoundQuery& query) {
    auto rows = session.query(query);
    if (rows.empty() || rows.front().size() < 2) {
        throw VerifyError(session.describe() + ": a chunk checksum returned no row (" + query.sql + ")");
    }
    return {rows.front()[0], rows.front()[1]};
}

uint64_t countOf(const ChunkChecksum& checksum) {
    return checksum.count ? std::stoull(*checksum.count) : 0;
}

// A keyed chunk's COUNT(*) and BIT_XOR of its row hashes, as numbers: the downstream's checksum row
// and the same figures folded from the upstream's row hashes compare alike.
struct ChunkFigures {
    uint64_t rows = 0;
    uint64_t hash = 0;
    bool operator==(const ChunkFigures&) const = default;
};

ChunkFigures figuresOfRowHashes(std::span<const RowValues> rowHashes) {
    ChunkFigures figures;
    figures.rows = rowHashes.size();
    for (const auto& row : rowHashes) {
        figures.hash ^= std::stoull(row.back().value_or("0"));
    }
    return figures;
}

ChunkFigures figuresOfChecksum(const ServerSession& session, const std::vector<RowValues>& checksumRows) {
    if (checksumRows.empty() || checksumRows.front().size() < 2) {
        throw VerifyError(session.describe() + ": a chunk checksum returned no row");
    }
    return {std::stoull(checksumRows.front()[0].value_or("0")), std::stoull(checksumRows.front()[1].value_or("0"))};
}

}  // namespace

TableVerifyResult TableVerifier::verify(const ComparedTable& table) {
    TableVerifyResult result;
    result.upstream = table.upstreamName();
    result.downstream = table.downstreamName();
    result.keyless = !table.hasKey();
    for (const auto& column : table.columns()) {
        result.columns.push_back(column.name);
    }
    result.keyColumns = table.keyColumns();
    if (!table.downstreamOnlyColumns().empty()) {
        std::string names;
        for (const auto& name : table.downstreamOnlyColumns()) {
            names += (names.empty() ? "" : ", ") + name;
        }
        result.notes.push_back("columns only the downstream has are not compared: " + names);
    }
    auto started = Clock::now();
    try {
        if (table.hasKey()) {
            verifyKeyed(table, result);
        } else {
            verifyKeyless(table, result);
        }
        if (cancelled()) {
            result.outcome = TableOutcome::Cancelled;
        } else {
            result.outcome = result.differences.empty() ? TableOutcome::Equal : TableOutcome::Different;
            result.verifiedAt = upstream_.binlogPosition();
        }
    } catch (const Error& e) {
        result.outcome = TableOutcome::Failed;
        result.problem = e.what();
        try {
            upstream_.execute("ROLLBACK");
        } catch (const Error&) {
            // The connection is gone; the problem above says why.
        }
    }
    result.seconds = std::chrono::duration<double>(Clock::now() - started).count();
    if (onProgress_) {
        onProgress_(result);
    }
    return result;
}

uint64_t TableVerifier::estimatedRows(const ComparedTable& table) {
    BoundQuery query{
        "SELECT TABLE_ROWS FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?",
        {apply::SqlValue::text(table.upstreamName().schema), apply::SqlValue::text(table.upstreamName().table)}};
    auto rows = upstream_.query(query);
    return rows.empty() || !rows.front().front() ? 0 : std::stoull(*rows.front().front());
}

TableVerifier::UpstreamChunk TableVerifier::readUpstreamChunk(const ComparedTable& table,
                                                              const std::optional<RowValues>& lower, size_t rows,
                                                              bool listed) {
    ChunkSql sql(table);
    UpstreamChunk chunk;
    chunk.range.lower = lower;
    chunk.listed = listed;
    if (!listed) {
        auto boundary = upstream_.query(sql.boundary(lower, rows - 1));
        if (!boundary.empty()) {
            chunk.range.upper = boundary.front();
        }
        return chunk;
    }
    chunk.rowHashes = upstream_.query(sql.nextRowHashes(lower, rows));
    if (chunk.rowHashes.size() >= rows) {
        // A full chunk ends at its last row; a short one is the last chunk and stays open above, so that
        // rows only the downstream has beyond the upstream's last are seen.
        const RowValues& last = chunk.rowHashes.back();
        chunk.range.upper = RowValues(last.begin(), last.end() - 1);  // the hash is last
    }
    return chunk;
}

std::vector<KeyRange> TableVerifier::rangesOf(const std::vector<ChunkPart>& parts) {
    std::vector<KeyRange> ranges;
    ranges.reserve(parts.size());
    for (const auto& part : parts) {
        ranges.push_back(part.range);
    }
    return ranges;
}

std::vector<TableVerifier::ChunkPart> TableVerifier::splitChunk(const UpstreamChunk& chunk) const {
    const size_t rows = chunk.rowHashes.size();
    const size_t count = std::clamp<size_t>(settings_.chunkParts, 1, std::max<size_t>(rows, 1));
    auto keyAt = [&](size_t row) {
        const RowValues& values = chunk.rowHashes[row];
        return RowValues(values.begin(), values.end() - 1);  // the hash is last
    };
    std::vector<ChunkPart> parts(count);
    for (size_t part = 0; part < count; ++part) {
        parts[part].firstRow = part == 0 ? 0 : parts[part - 1].endRow;
        parts[part].endRow = (part + 1) * rows / count;
        parts[part].range.lower = part == 0 ? chunk.range.lower : parts[part - 1].range.upper;
        parts[part].range.upper = part + 1 == count ? chunk.range.upper : keyAt(parts[part].endRow - 1);
    }
    return parts;
}

std::vector<RowDifference> TableVerifier::differingRowsOfParts(const ComparedTable& table, const UpstreamChunk& chunk,
                                                               const std::vector<ChunkPart>& parts,
                                                               const std::vector<RowValues>& downstreamParts,
                                                               bool& differs) {
    if (downstreamParts.size() != parts.size()) {
        throw VerifyError(downstream_.describe() + ": a chunk's part checksums returned " +
                          std::to_string(downstreamParts.size()) + " rows for " + std::to_string(parts.size()) +
                          " parts");
    }
    ChunkSql sql(table);
    std::vector<RowDifference> suspects;
    for (const auto& row : downstreamParts) {
        const size_t number = std::stoull(row.at(0).value_or("0"));
        const ChunkPart& part = parts.at(number);
        std::span<const RowValues> upstreamRows(chunk.rowHashes.data() + part.firstRow, part.endRow - part.firstRow);
        if (figuresOfRowHashes(upstreamRows) ==
            figuresOfChecksum(downstream_, {RowValues(row.begin() + 1, row.end())})) {
            continue;
        }
        differs = true;
        auto partSuspects = diffRowHashes(std::vector<RowValues>(upstreamRows.begin(), upstreamRows.end()),
                                          downstream_.query(sql.rowHashes(table.downstreamName(), part.range)));
        suspects.insert(suspects.end(), std::make_move_iterator(partSuspects.begin()),
                        std::make_move_iterator(partSuspects.end()));
    }
    return suspects;
}

void TableVerifier::verifyKeyed(const ComparedTable& table, TableVerifyResult& result) {
    ChunkSql sql(table);
    ChunkPacer pacer(settings_);
    const uint64_t estimate = estimatedRows(table);
    // Where chunks are equal (the common case) the upstream finds a chunk's end by a walk of the key and
    // both servers checksum it at once: no rows sent. Where one differed, differences come in stretches
    // (or cover the whole table, as after a lost stretch of binlog): the upstream lists the next chunks'
    // keys and row hashes (one pass that also ends the chunk, read while the downstream reads the previous
    // chunk), and the downstream checksums their parts at once. Where a chunk's checksums differ, the
    // downstream checksums its parts (one pass) and lists the row hashes of differing parts only.
    bool listNext = false;
    std::optional<RowValues> lower;
    std::optional<UpstreamChunk> ahead;
    while (!cancelled()) {
        Clock::time_point started = Clock::now();
        size_t rows = 0;
        if (!ahead) {
            pacer.waitForQuietUpstream(upstream_, cancel_);
            rows = pacer.chunkRows();
        }
        UpstreamChunk chunk = ahead ? std::move(*ahead) : readUpstreamChunk(table, lower, rows, listNext);
        ahead.reset();
        const bool partsFirst = chunk.listed && listNext;
        std::vector<ChunkPart> parts = chunk.listed ? splitChunk(chunk) : std::vector<ChunkPart>{};
        auto downstreamQuery = partsFirst ? sql.partChecksums(table.downstreamName(), rangesOf(parts))
                                          : sql.checksum(table.downstreamName(), chunk.range);
        auto downstreamRead = std::async(std::launch::async, [&] { return downstream_.query(downstreamQuery); });
        std::optional<ChunkFigures> upstreamFigures;
        std::exception_ptr upstreamFailure;
        try {
            if (!chunk.listed) {
                upstreamFigures =
                    figuresOfChecksum(upstream_, upstream_.query(sql.checksum(table.upstreamName(), chunk.range)));
                if (rows > 0) {
                    pacer.chunkTook(rows, Clock::now() - started);
                }
            } else if (chunk.range.upper) {
                // The upstream lists the next chunk while the downstream reads this one.
                pacer.waitForQuietUpstream(upstream_, cancel_);
                size_t nextRows = pacer.chunkRows();
                auto nextStarted = Clock::now();
                ahead = readUpstreamChunk(table, chunk.range.upper, nextRows, listNext);
                if (ahead->listed) {
                    pacer.chunkTook(nextRows, Clock::now() - nextStarted);
                }
            }
        } catch (...) {
            upstreamFailure = std::current_exception();  // after the downstream's read has ended
        }
        std::vector<RowValues> downstreamResult = downstreamRead.get();
        if (upstreamFailure) {
            std::rethrow_exception(upstreamFailure);
        }
        result.rowsCompared += upstreamFigures ? upstreamFigures->rows : chunk.rowHashes.size();
        bool chunkDiffers = false;
        if (!partsFirst) {
            chunkDiffers = !((upstreamFigures ? *upstreamFigures : figuresOfRowHashes(chunk.rowHashes)) ==
                             figuresOfChecksum(downstream_, downstreamResult));
            if (chunkDiffers) {
                if (!chunk.listed) {
                    chunk.rowHashes = upstream_.query(sql.rowHashes(table.upstreamName(), chunk.range));
                    chunk.listed = true;
                    parts = splitChunk(chunk);
                }
                downstreamResult = downstream_.query(sql.partChecksums(table.downstreamName(), rangesOf(parts)));
            }
        }
        std::vector<RowDifference> suspects;
        if (partsFirst || chunkDiffers) {
            suspects = differingRowsOfParts(table, chunk, parts, downstreamResult, chunkDiffers);
        }
        listNext = chunkDiffers;
        if (chunkDiffers) {
            auto confirmed = suspects.empty() ? suspects : confirm(table, suspects, true);
            if (confirmed.size() < suspects.size() || suspects.empty()) {
                ++result.chunksRechecked;
            }
            result.rowsInFlight += suspects.size() - confirmed.size();
            for (auto& difference : confirmed) {
                result.differences.push_back(std::move(difference));
            }
        }
        ++result.chunksDone;
        uint64_t remaining = estimate > result.rowsCompared ? estimate - result.rowsCompared : 0;
        result.chunksTotal =
            result.chunksDone + (chunk.range.upper ? std::max<uint64_t>(1, remaining / pacer.chunkRows()) : 0);
        if (onProgress_) {
            onProgress_(result);
        }
        if (!chunk.range.upper) {
            break;
        }
        lower = chunk.range.upper;
    }
}

bool TableVerifier::waitUntilApplied(const binlog::Location& point) {
    auto deadline = Clock::now() + settings_.settleTimeout;
    while (true) {
        AppliedAnswer answer = progress_.appliedUpTo(point);
        if (answer != AppliedAnswer::NotYet) {
            return true;
        }
        if (Clock::now() >= deadline || cancelled()) {
            return false;
        }
        std::this_thread::sleep_for(settings_.appliedPoll);
    }
}

std::vector<RowDifference> TableVerifier::confirm(const ComparedTable& table,
                                                  const std::vector<RowDifference>& suspects, bool handToRepair) {
    ChunkSql sql(table);
    for (int attempt = 1;; ++attempt) {
        try {
            upstream_.execute("START TRANSACTION");
            // Lock every suspect row upstream (and the gap of an absent one): from here on no upstream
            // transaction can change them, and every earlier change is committed and in the binlog
            // before the position read next.
            std::vector<std::optional<RowValues>> upstreamRows;
            for (const auto& suspect : suspects) {
                auto rows = upstream_.query(sql.rowByKey(table.upstreamName(), suspect.key, true));
                upstreamRows.push_back(rows.empty() ? std::nullopt : std::optional<RowValues>(rows.front()));
            }
            binlog::Location lockedAt = upstream_.binlogPosition();
            bool settled = waitUntilApplied(lockedAt);
            std::vector<RowDifference> confirmed;
            for (size_t i = 0; i < suspects.size(); ++i) {
                auto rows = downstream_.query(sql.rowByKey(table.downstreamName(), suspects[i].key, false));
                std::optional<RowValues> downstreamRow;
                if (!rows.empty()) {
                    downstreamRow = rows.front();
                }
                if (auto difference = diffRow(table, suspects[i].key, upstreamRows[i], downstreamRow)) {
                    difference->settled = settled;
                    confirmed.push_back(std::move(*difference));
                }
            }
            if (handToRepair && onConfirmed_ && !confirmed.empty() && settled) {
                onConfirmed_(table, confirmed);
            }
            upstream_.execute("COMMIT");
            return confirmed;
        } catch (const ServerError& e) {
            upstream_.execute("ROLLBACK");
            if (!ServerSession::isLockWaitTimeout(e.code()) || attempt >= settings_.lockAttempts) {
                throw;
            }
        }
    }
}

std::vector<RowDifference> TableVerifier::recheck(const ComparedTable& table,
                                                  const std::vector<RowDifference>& differences) {
    if (!table.hasKey()) {
        TableVerifyResult result;
        verifyKeyless(table, result);
        return result.differences;
    }
    return confirm(table, differences, false);
}

void TableVerifier::verifyKeyless(const ComparedTable& table, TableVerifyResult& result) {
    ChunkSql sql(table);
    auto downstreamChecksum = std::async(std::launch::async, [&] {
        return checksumOf(downstream_, BoundQuery{sql.wholeTableChecksum(table.downstreamName()), {}});
    });
    ChunkChecksum upstreamChecksum =
        checksumOf(upstream_, BoundQuery{sql.wholeTableChecksum(table.upstreamName()), {}});
    ChunkChecksum downstreamResult = downstreamChecksum.get();
    result.chunksDone = result.chunksTotal = 1;
    result.rowsCompared = countOf(upstreamChecksum);
    if (upstreamChecksum == downstreamResult) {
        return;
    }
    // Without a key there is no row to lock: read the upstream's counts, wait until the task has
    // applied up to where they were read, then read the downstream's.
    auto upstreamCounts = upstream_.query(sql.rowCounts(table.upstreamName()));
    bool settled = waitUntilApplied(upstream_.binlogPosition());
    auto downstreamCounts = downstream_.query(sql.rowCounts(table.downstreamName()));
    result.differences = diffRowCounts(table, upstreamCounts, downstreamCounts);
    for (auto& difference : result.differences) {
        difference.settled = settled;
    }
}

}  // namespace syncscope::verify
