#include "engine/verify/table_verifier.h"

#include <algorithm>
#include <exception>
#include <future>
#include <iterator>
#include <span>
#include <thread>

#include "engine/verify/row_diff.h"
#include "engine/verify/value_chunk_pipeline.h"

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
        figures.hash ^= std::stoull(row.back().value_or("0")) * ChunkSql::kRowHashMix;  // as the servers fold them
    }
    return figures;
}

ChunkFigures figuresOfChecksum(const ServerSession& session, const std::vector<RowValues>& checksumRows) {
    if (checksumRows.empty() || checksumRows.front().size() < 2) {
        throw VerifyError(session.describe() + ": a chunk checksum returned no row");
    }
    return {std::stoull(checksumRows.front()[0].value_or("0")), std::stoull(checksumRows.front()[1].value_or("0"))};
}

// Runs one query on each server at the same time; a failure of either is thrown once both have ended.
std::pair<std::vector<RowValues>, std::vector<RowValues>> queryBoth(ServerSession& upstream,
                                                                    const BoundQuery& upstreamQuery,
                                                                    ServerSession& downstream,
                                                                    const BoundQuery& downstreamQuery) {
    auto downstreamRead = std::async(std::launch::async, [&] { return downstream.query(downstreamQuery); });
    std::vector<RowValues> upstreamRows;
    std::exception_ptr upstreamFailure;
    try {
        upstreamRows = upstream.query(upstreamQuery);
    } catch (...) {
        upstreamFailure = std::current_exception();  // after the downstream's read has ended
    }
    std::vector<RowValues> downstreamRows = downstreamRead.get();
    if (upstreamFailure) {
        std::rethrow_exception(upstreamFailure);
    }
    return {std::move(upstreamRows), std::move(downstreamRows)};
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

TableVerifier::TableEstimate TableVerifier::upstreamEstimate(const ComparedTable& table) {
    BoundQuery query{
        "SELECT TABLE_ROWS, AVG_ROW_LENGTH FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?",
        {apply::SqlValue::text(table.upstreamName().schema), apply::SqlValue::text(table.upstreamName().table)}};
    auto rows = upstream_.query(query);
    TableEstimate found;
    if (!rows.empty() && rows.front().size() >= 2) {
        found.rows = rows.front()[0] ? std::stoull(*rows.front()[0]) : 0;
        found.averageRowBytes = rows.front()[1] ? std::stoull(*rows.front()[1]) : 0;
    }
    return found;
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

ChunkComparison TableVerifier::compareWalkedChunk(const ComparedTable& table, UpstreamChunk& chunk,
                                                  const std::function<void()>& checksummed) {
    ChunkSql sql(table);
    auto [upstreamResult, downstreamResult] = queryBoth(upstream_, sql.checksum(table.upstreamName(), chunk.range),
                                                        downstream_, sql.checksum(table.downstreamName(), chunk.range));
    const ChunkFigures upstreamFigures = figuresOfChecksum(upstream_, upstreamResult);
    checksummed();
    ChunkComparison comparison;
    comparison.rows = upstreamFigures.rows;
    if (upstreamFigures == figuresOfChecksum(downstream_, downstreamResult)) {
        return comparison;
    }
    chunk.rowHashes = upstream_.query(sql.rowHashes(table.upstreamName(), chunk.range));
    chunk.listed = true;
    std::vector<ChunkPart> parts = splitChunk(chunk);
    comparison.differs = true;
    comparison.suspects = differingRowsOfParts(
        table, chunk, parts, downstream_.query(sql.partChecksums(table.downstreamName(), rangesOf(parts))),
        comparison.differs);
    return comparison;
}

ChunkComparison TableVerifier::compareListedChunk(const ComparedTable& table, const UpstreamChunk& chunk,
                                                  bool partsFirst, bool listNext, ChunkPacer& pacer,
                                                  std::optional<UpstreamChunk>& ahead) {
    ChunkSql sql(table);
    // The upstream reads the next chunk while the downstream compares this one (its checksums and the
    // listings of differing parts): the pacer and the upstream session are the reader's until it ends.
    std::future<UpstreamChunk> next;
    if (chunk.range.upper) {
        next = std::async(std::launch::async, [&, upper = *chunk.range.upper] {
            pacer.waitForQuietUpstream(upstream_, cancel_);
            const size_t rows = pacer.chunkRows();
            const auto started = Clock::now();
            UpstreamChunk read = readUpstreamChunk(table, upper, rows, listNext);
            if (read.listed) {
                pacer.chunkTook(rows, Clock::now() - started);
            }
            return read;
        });
    }
    ChunkComparison comparison;
    comparison.rows = chunk.rowHashes.size();
    try {
        std::vector<ChunkPart> parts = splitChunk(chunk);
        // Parts first: they say whether the chunk differs. Else a chunk whose checksums differ differs even
        // when none of its parts does any more (rows were in flight between the two reads).
        comparison.differs =
            !partsFirst &&
            !(figuresOfRowHashes(chunk.rowHashes) ==
              figuresOfChecksum(downstream_, downstream_.query(sql.checksum(table.downstreamName(), chunk.range))));
        if (partsFirst || comparison.differs) {
            comparison.suspects = differingRowsOfParts(
                table, chunk, parts, downstream_.query(sql.partChecksums(table.downstreamName(), rangesOf(parts))),
                comparison.differs);
        }
    } catch (...) {
        if (next.valid()) {
            next.wait();  // the upstream's read ends before the failure is reported
        }
        throw;
    }
    if (next.valid()) {
        ahead = next.get();
    }
    return comparison;
}

void TableVerifier::noteUnsettled(const RowConfirmer& confirming, TableVerifyResult& result) {
    const std::string& why = confirming.unsettled();
    if (!why.empty() && std::find(result.notes.begin(), result.notes.end(), why) == result.notes.end()) {
        result.notes.push_back(why);
    }
}

void TableVerifier::confirmPending(const ComparedTable& table, PendingSuspects& pending, TableVerifyResult& result) {
    if (pending.rows.empty()) {
        return;
    }
    const ConfirmedDifferencesHandler* handler = onConfirmed_ ? &onConfirmed_ : nullptr;
    RowConfirmer confirming = confirmer();
    std::vector<RowDifference> confirmed = confirming.confirm(table, pending.rows, handler);
    noteUnsettled(confirming, result);
    // The confirmed rows come in the suspects' order (keys are unique among them): every suspect not among
    // them was in flight, and its chunk was re-read because of it.
    std::vector<uint64_t> chunksInFlight;
    size_t next = 0;
    for (size_t i = 0; i < pending.rows.size(); ++i) {
        if (next < confirmed.size() && confirmed[next].key == pending.rows[i].key) {
            ++next;
        } else if (chunksInFlight.empty() || chunksInFlight.back() != pending.chunks[i]) {
            chunksInFlight.push_back(pending.chunks[i]);
        }
    }
    result.chunksRechecked += chunksInFlight.size();
    result.rowsInFlight += pending.rows.size() - confirmed.size();
    for (auto& difference : confirmed) {
        result.differences.push_back(std::move(difference));
    }
    pending = {};
}

void TableVerifier::recordChunk(ChunkComparison& comparison, PendingSuspects& pending, TableVerifyResult& result) {
    result.rowsCompared += comparison.rows;
    if (comparison.differs && comparison.suspects.empty()) {
        ++result.chunksRechecked;  // the checksums differed, no row did: rows were in flight
    }
    for (auto& suspect : comparison.suspects) {
        pending.rows.push_back(std::move(suspect));
        pending.chunks.push_back(result.chunksDone);
    }
    ++result.chunksDone;
}

void TableVerifier::verifyByKeyValue(const ComparedTable& table, KeyValueChunks& chunks, uint64_t averageRowBytes,
                                     TableVerifyResult& result) {
    // The last such table's chunk rows, scaled to this table's rows (the servers' time follows the bytes
    // read); where either length is unknown, the chunks start from the settings.
    ValueChunkPipeline::Pace pace = valuePace_;
    if (pace.chunkRows > 0 && valuePaceRowBytes_ > 0 && averageRowBytes > 0) {
        pace.chunkRows =
            static_cast<size_t>(static_cast<double>(pace.chunkRows) * static_cast<double>(valuePaceRowBytes_) /
                                static_cast<double>(averageRowBytes));
    } else {
        pace.chunkRows = 0;
    }
    ValueChunkPipeline pipeline(upstream_, downstream_, table, chunks, settings_, cancel_, pace);
    PendingSuspects pending;
    while (std::optional<ChunkComparison> comparison = pipeline.next()) {
        recordChunk(*comparison, pending, result);
        if (pending.rows.size() >= settings_.confirmRows) {
            pipeline.waitIdle();  // the confirmation reads both sessions itself
            confirmPending(table, pending, result);
        }
        result.chunksTotal = result.chunksDone + pipeline.chunksLeft();
        if (onProgress_) {
            onProgress_(result);
        }
    }
    valuePace_ = pipeline.pace();
    valuePaceRowBytes_ = averageRowBytes;
    if (!cancelled()) {
        confirmPending(table, pending, result);
    }
}

void TableVerifier::verifyKeyed(const ComparedTable& table, TableVerifyResult& result) {
    const TableEstimate tableEstimate = upstreamEstimate(table);
    const uint64_t estimate = tableEstimate.rows;
    if (settings_.chunkByKeyValue && KeyValueChunks::applies(table)) {
        auto extremes = upstream_.query(ChunkSql(table).keyExtremes());
        if (extremes.empty() || extremes.front().size() < 2) {
            throw VerifyError(upstream_.describe() + ": the key's lowest and highest values returned no row");
        }
        KeyValueChunks chunks(table, extremes.front()[0], extremes.front()[1], estimate);
        if (chunks.dense()) {
            verifyByKeyValue(table, chunks, tableEstimate.averageRowBytes, result);
            return;
        }
    }
    ChunkPacer pacer(settings_);
    // Where chunks are equal (the common case) the upstream finds a chunk's end by a walk of the key and
    // both servers checksum it at once: no rows sent. Where one differed, differences come in stretches
    // (or cover the whole table, as after a lost stretch of binlog): the upstream lists the next chunks'
    // keys and row hashes (one pass that also ends the chunk, read while the downstream compares the
    // previous chunk), and the downstream checksums their parts at once. Where a chunk's checksums
    // differ, the downstream checksums its parts (one pass) and lists the row hashes of differing parts
    // only. The suspects are confirmed in batches of settings_.confirmRows and at the table's end.
    bool listNext = false;
    std::optional<RowValues> lower;
    std::optional<UpstreamChunk> ahead;
    PendingSuspects pending;
    while (!cancelled()) {
        ChunkComparison comparison;
        std::optional<RowValues> upper;
        if (ahead) {
            UpstreamChunk chunk = std::move(*ahead);
            ahead.reset();
            upper = chunk.range.upper;
            comparison = chunk.listed ? compareListedChunk(table, chunk, listNext, listNext, pacer, ahead)
                                      : compareWalkedChunk(table, chunk, [] {});
        } else {
            pacer.waitForQuietUpstream(upstream_, cancel_);
            const size_t rows = pacer.chunkRows();
            const Clock::time_point started = Clock::now();
            UpstreamChunk chunk = readUpstreamChunk(table, lower, rows, listNext);
            upper = chunk.range.upper;
            if (chunk.listed) {
                pacer.chunkTook(rows, Clock::now() - started);
                comparison = compareListedChunk(table, chunk, true, listNext, pacer, ahead);
            } else {
                comparison = compareWalkedChunk(table, chunk, [&] { pacer.chunkTook(rows, Clock::now() - started); });
            }
        }
        listNext = comparison.differs;
        recordChunk(comparison, pending, result);
        if (pending.rows.size() >= settings_.confirmRows) {
            confirmPending(table, pending, result);
        }
        uint64_t remaining = estimate > result.rowsCompared ? estimate - result.rowsCompared : 0;
        result.chunksTotal = result.chunksDone + (upper ? std::max<uint64_t>(1, remaining / pacer.chunkRows()) : 0);
        if (onProgress_) {
            onProgress_(result);
        }
        if (!upper) {
            break;
        }
        lower = std::move(upper);
    }
    if (!cancelled()) {
        confirmPending(table, pending, result);
    }
}

std::vector<RowDifference> TableVerifier::recheck(const ComparedTable& table,
                                                  const std::vector<RowDifference>& differences) {
    if (!table.hasKey()) {
        TableVerifyResult result;
        verifyKeyless(table, result);
        return result.differences;
    }
    return confirmer().confirm(table, differences, nullptr);
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
    RowConfirmer confirming = confirmer();
    bool settled = confirming.waitUntilApplied(upstream_.binlogPosition());
    noteUnsettled(confirming, result);
    auto downstreamCounts = downstream_.query(sql.rowCounts(table.downstreamName()));
    result.differences = diffRowCounts(table, upstreamCounts, downstreamCounts);
    for (auto& difference : result.differences) {
        difference.settled = settled;
    }
}

}  // namespace syncscope::verify
