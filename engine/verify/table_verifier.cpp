#include "engine/verify/table_verifier.h"

#include <future>
#include <map>
#include <set>
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

void TableVerifier::verifyKeyed(const ComparedTable& table, TableVerifyResult& result) {
    ChunkSql sql(table);
    ChunkPacer pacer(settings_);
    const uint64_t estimate = estimatedRows(table);
    std::optional<RowValues> lower;
    // Differences come in stretches (or cover the whole table, as after a lost stretch of binlog): after
    // a chunk that differs the next one is checksummed by buckets at once, which finds both whether it
    // differs and where; after an equal one, by one checksum again (cheaper by a fifth).
    bool bucketsFirst = false;
    while (!cancelled()) {
        pacer.waitForQuietUpstream(upstream_, cancel_);
        size_t chunkRows = pacer.chunkRows();
        auto started = Clock::now();
        auto boundary = upstream_.query(sql.boundary(lower, chunkRows - 1));
        KeyRange range{lower, std::nullopt};
        if (!boundary.empty()) {
            range.upper = boundary.front();
        }
        bool chunkDiffers = false;
        std::optional<std::vector<uint32_t>> differingBuckets;
        if (bucketsFirst && settings_.diffBuckets > 1) {
            BucketComparison comparison = compareBuckets(table, range);
            result.rowsCompared += comparison.upstreamRows;
            chunkDiffers = !comparison.differing.empty();
            differingBuckets = std::move(comparison.differing);
        } else {
            // Both servers checksum the chunk at once: each side's time is the other's.
            auto downstreamQuery = sql.checksum(table.downstreamName(), range);
            auto downstreamChecksum =
                std::async(std::launch::async, [&] { return checksumOf(downstream_, downstreamQuery); });
            ChunkChecksum upstreamChecksum = checksumOf(upstream_, sql.checksum(table.upstreamName(), range));
            ChunkChecksum downstreamResult = downstreamChecksum.get();
            result.rowsCompared += countOf(upstreamChecksum);
            chunkDiffers = !(upstreamChecksum == downstreamResult);
        }
        pacer.chunkTook(chunkRows, Clock::now() - started);
        bucketsFirst = chunkDiffers;
        if (chunkDiffers) {
            auto suspects = differingRows(table, range, std::move(differingBuckets));
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
            result.chunksDone + (range.upper ? std::max<uint64_t>(1, remaining / pacer.chunkRows()) : 0);
        if (onProgress_) {
            onProgress_(result);
        }
        if (!range.upper) {
            break;
        }
        lower = range.upper;
    }
}

TableVerifier::BucketComparison TableVerifier::compareBuckets(const ComparedTable& table, const KeyRange& range) {
    ChunkSql sql(table);
    const uint32_t buckets = settings_.diffBuckets;
    // Both servers checksum the chunk's buckets at once.
    auto downstreamQuery = sql.bucketChecksums(table.downstreamName(), range, buckets);
    auto downstreamBuckets = std::async(std::launch::async, [&] { return downstream_.query(downstreamQuery); });
    auto upstreamBuckets = upstream_.query(sql.bucketChecksums(table.upstreamName(), range, buckets));
    BucketComparison comparison;
    std::map<std::string, RowValues> upstreamByBucket;
    for (auto& row : upstreamBuckets) {
        comparison.upstreamRows += std::stoull(row.at(1).value_or("0"));
        upstreamByBucket[row.at(0).value_or("")] = std::move(row);
    }
    std::set<uint32_t> differing;
    auto noteDiffering = [&](const std::optional<std::string>& bucket) {
        differing.insert(static_cast<uint32_t>(std::stoul(bucket.value_or("0"))));
    };
    for (auto& row : downstreamBuckets.get()) {
        auto found = upstreamByBucket.find(row.at(0).value_or(""));
        if (found == upstreamByBucket.end()) {
            noteDiffering(row.at(0));
            continue;
        }
        if (found->second != row) {
            noteDiffering(row.at(0));
        }
        upstreamByBucket.erase(found);
    }
    for (const auto& [bucket, row] : upstreamByBucket) {
        noteDiffering(row.at(0));
    }
    comparison.differing.assign(differing.begin(), differing.end());
    return comparison;
}

std::vector<RowDifference> TableVerifier::differingRows(const ComparedTable& table, const KeyRange& range,
                                                        std::optional<std::vector<uint32_t>> differingBuckets) {
    ChunkSql sql(table);
    const uint32_t buckets = settings_.diffBuckets;
    if (buckets <= 1) {
        auto downstreamRows =
            std::async(std::launch::async, [&] { return downstream_.query(sql.rows(table.downstreamName(), range)); });
        auto upstreamRows = upstream_.query(sql.rows(table.upstreamName(), range));
        return diffRows(table, upstreamRows, downstreamRows.get());
    }
    if (!differingBuckets) {
        differingBuckets = compareBuckets(table, range).differing;
    }
    if (differingBuckets->empty()) {
        return {};  // the chunk changed between the two reads: nothing left to read
    }
    // Only the rows of buckets that differ are read.
    auto downstreamRowsQuery = sql.rowsInBuckets(table.downstreamName(), range, buckets, *differingBuckets);
    auto downstreamRows = std::async(std::launch::async, [&] { return downstream_.query(downstreamRowsQuery); });
    auto upstreamRows = upstream_.query(sql.rowsInBuckets(table.upstreamName(), range, buckets, *differingBuckets));
    return diffRows(table, upstreamRows, downstreamRows.get());
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
