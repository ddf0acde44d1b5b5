#include "engine/verify/value_chunk_pipeline.h"

#include <algorithm>
#include <string>

#include "engine/verify/row_diff.h"

namespace syncscope::verify {

namespace {

using Clock = std::chrono::steady_clock;

// Chunks cut by key value hold no rows in the client, so only chunkTime bounds them, up to
// maxValueChunkRows. A table starts where the last one ended (Pace).
VerifySettings valueChunkSettings(const VerifySettings& settings, const ValueChunkPipeline::Pace& pace) {
    VerifySettings valueSettings = settings;
    valueSettings.maxChunkRows = std::max(settings.maxValueChunkRows, settings.minChunkRows);
    if (pace.chunkRows > 0) {
        valueSettings.firstChunkRows =
            std::clamp(pace.chunkRows, valueSettings.minChunkRows, valueSettings.maxChunkRows);
    }
    return valueSettings;
}

uint64_t numberIn(const std::optional<std::string>& text) {
    return text ? std::stoull(*text) : 0;
}

// Consecutive ranges `each` at a time, joined: they meet without gap or overlap as the ranges do.
std::vector<KeyRange> grouped(const std::vector<KeyRange>& ranges, size_t each) {
    std::vector<KeyRange> groups;
    groups.reserve((ranges.size() + each - 1) / each);
    for (size_t first = 0; first < ranges.size(); first += each) {
        const size_t last = std::min(ranges.size(), first + each) - 1;
        groups.push_back(KeyRange{ranges[first].lower, ranges[last].upper});
    }
    return groups;
}

}  // namespace

ValueChunkPipeline::ValueChunkPipeline(ServerSession& upstream, ServerSession& downstream, const ComparedTable& table,
                                       KeyValueChunks& chunks, const VerifySettings& settings,
                                       const std::atomic<bool>* cancel, Pace pace)
    : table_(table),
      chunks_(chunks),
      settings_(valueChunkSettings(settings, pace)),
      cancel_(cancel),
      pacer_(settings_),
      parts_(pace.parts > 0 ? pace.parts : settings_.chunkParts),
      upstreamWorker_(upstream),
      downstreamWorker_(downstream) {}

ValueChunkPipeline::PartFigures ValueChunkPipeline::readParts(ServerSession& session, const BoundQuery& query,
                                                              size_t count) {
    const Clock::time_point started = Clock::now();
    const std::vector<RowValues> rows = session.query(query);
    PartFigures figures;
    figures.took = Clock::now() - started;
    if (rows.size() != count) {
        throw VerifyError(session.describe() + ": a chunk's part checksums returned " + std::to_string(rows.size()) +
                          " rows for " + std::to_string(count) + " parts (" + query.sql + ")");
    }
    figures.parts.resize(count);
    for (const auto& row : rows) {
        if (row.size() < 3) {
            throw VerifyError(session.describe() + ": a part checksum row has " + std::to_string(row.size()) +
                              " columns (" + query.sql + ")");
        }
        figures.parts.at(numberIn(row[0])) = {numberIn(row[1]), numberIn(row[2])};
    }
    return figures;
}

std::optional<ValueChunkPipeline::ChunkInFlight> ValueChunkPipeline::startChunk() {
    if (cancelled()) {
        return std::nullopt;
    }
    const std::optional<KeyRange> range = chunks_.next(pacer_.chunkRows());
    if (!range) {
        return std::nullopt;
    }
    ChunkInFlight chunk;
    chunk.width = chunks_.width();
    chunk.last = !range->upper;
    chunk.subPartsEach = std::max<size_t>(settings_.differingPartSubParts, 1);
    chunk.subParts = chunks_.parts(parts_ * chunk.subPartsEach);
    chunk.parts = grouped(chunk.subParts, chunk.subPartsEach);
    const ChunkSql sql(table_);
    chunk.upstream = upstreamWorker_.submit([this, query = sql.partChecksums(table_.upstreamName(), chunk.parts),
                                             count = chunk.parts.size()](ServerSession& session) {
        pacer_.waitForQuietUpstream(session, cancel_);
        return readParts(session, query, count);
    });
    chunk.downstream = downstreamWorker_.submit(
        [query = sql.partChecksums(table_.downstreamName(), chunk.parts),
         count = chunk.parts.size()](ServerSession& session) { return readParts(session, query, count); });
    return chunk;
}

void ValueChunkPipeline::startChunks() {
    while (inFlight_.size() < kChunksInFlight) {
        std::optional<ChunkInFlight> chunk = startChunk();
        if (!chunk) {
            return;
        }
        inFlight_.push_back(std::move(*chunk));
    }
}

bool ValueChunkPipeline::FollowUp::ready() const {
    auto ended = [](const auto& result) {
        return !result.valid() || result.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
    };
    return ended(upstreamSubParts) && ended(downstreamSubParts) && ended(upstreamRows) && ended(downstreamRows);
}

ValueChunkPipeline::FollowUp ValueChunkPipeline::compareParts(ChunkComparison comparison, const ChunkInFlight& chunk,
                                                              const PartFigures& upstream,
                                                              const PartFigures& downstream) {
    FollowUp followUp;
    followUp.comparison = std::move(comparison);
    for (size_t part = 0; part < chunk.parts.size(); ++part) {
        if (upstream.parts[part] == downstream.parts[part]) {
            continue;
        }
        followUp.comparison.differs = true;
        const size_t first = part * chunk.subPartsEach;
        const size_t end = std::min(chunk.subParts.size(), first + chunk.subPartsEach);
        const uint64_t rows = std::max(upstream.parts[part].first, downstream.parts[part].first);
        if (end - first > 1 && rows > settings_.subPartMinRows) {
            followUp.subParts.insert(followUp.subParts.end(), chunk.subParts.begin() + static_cast<ptrdiff_t>(first),
                                     chunk.subParts.begin() + static_cast<ptrdiff_t>(end));
        } else {
            followUp.toList.push_back(chunk.parts[part]);
        }
    }
    if (!followUp.subParts.empty()) {
        startSubParts(followUp);
    } else if (!followUp.toList.empty()) {
        startListing(followUp);
    }
    return followUp;
}

void ValueChunkPipeline::startSubParts(FollowUp& followUp) {
    const ChunkSql sql(table_);
    const size_t count = followUp.subParts.size();
    followUp.upstreamSubParts =
        upstreamWorker_.submit([query = sql.partChecksums(table_.upstreamName(), followUp.subParts),
                                count](ServerSession& session) { return readParts(session, query, count); });
    followUp.downstreamSubParts =
        downstreamWorker_.submit([query = sql.partChecksums(table_.downstreamName(), followUp.subParts),
                                  count](ServerSession& session) { return readParts(session, query, count); });
}

void ValueChunkPipeline::startListing(FollowUp& followUp) {
    const ChunkSql sql(table_);
    followUp.upstreamRows = upstreamWorker_.submit([query = sql.rowHashes(table_.upstreamName(), followUp.toList)](
                                                       ServerSession& session) { return session.query(query); });
    followUp.downstreamRows =
        downstreamWorker_.submit([query = sql.rowHashes(table_.downstreamName(), followUp.toList)](
                                     ServerSession& session) { return session.query(query); });
}

void ValueChunkPipeline::moveOn(FollowUp& followUp) {
    if (followUp.upstreamSubParts.valid()) {
        const PartFigures upstream = followUp.upstreamSubParts.get();
        const PartFigures downstream = followUp.downstreamSubParts.get();
        for (size_t subPart = 0; subPart < followUp.subParts.size(); ++subPart) {
            if (upstream.parts[subPart] != downstream.parts[subPart]) {
                followUp.toList.push_back(followUp.subParts[subPart]);
            }
        }
        followUp.subParts.clear();
        // No differing part or sub-part left: rows were in flight between the reads (the caller counts the
        // chunk as read again).
        if (!followUp.toList.empty()) {
            startListing(followUp);
        }
        return;
    }
    if (followUp.upstreamRows.valid()) {
        const std::vector<RowValues> upstreamHashes = followUp.upstreamRows.get();
        const std::vector<RowValues> downstreamHashes = followUp.downstreamRows.get();
        followUp.comparison.suspects = diffRowHashes(upstreamHashes, downstreamHashes);
    }
}

void ValueChunkPipeline::moveOnReady() {
    for (auto& followUp : followUps_) {
        if (!followUp.done() && followUp.ready()) {
            moveOn(followUp);
        }
    }
    while (!followUps_.empty() && followUps_.front().done()) {
        compared_.push_back(std::move(followUps_.front().comparison));
        followUps_.pop_front();
    }
}

void ValueChunkPipeline::advance() {
    if (inFlight_.empty()) {
        // The table's end: nothing more to start, so wait for the oldest chunk's next step.
        moveOn(followUps_.front());
        moveOnReady();
        return;
    }
    ChunkInFlight chunk = std::move(inFlight_.front());
    inFlight_.pop_front();
    const PartFigures upstream = chunk.upstream.get();
    ChunkComparison comparison;
    for (const auto& part : upstream.parts) {
        comparison.rows += part.first;
    }
    // The upstream's figures size the next chunk, which both servers start now, before this one is compared.
    chunks_.observed(comparison.rows, chunk.width);
    if (!chunk.last) {
        pacer_.chunkTook(comparison.rows, upstream.took);  // the rest of a table says little of the rate
    }
    startChunks();
    const PartFigures downstream = chunk.downstream.get();
    // Statements queued before this chunk's have ended: the earlier chunks' next steps go first.
    moveOnReady();
    size_t differingParts = 0;
    for (size_t part = 0; part < chunk.parts.size(); ++part) {
        differingParts += upstream.parts[part] != downstream.parts[part] ? 1 : 0;
    }
    // The chunks after those already started get finer parts where differences are spread.
    parts_ =
        differingParts > 1 ? std::max(settings_.chunkParts, settings_.spreadDifferenceParts) : settings_.chunkParts;
    followUps_.push_back(compareParts(std::move(comparison), chunk, upstream, downstream));
    moveOnReady();
}

std::optional<ChunkComparison> ValueChunkPipeline::next() {
    if (!started_) {
        started_ = true;
        startChunks();
    }
    while (compared_.empty() && (!inFlight_.empty() || !followUps_.empty()) && !cancelled()) {
        advance();
    }
    if (compared_.empty() || cancelled()) {
        return std::nullopt;
    }
    ChunkComparison comparison = std::move(compared_.front());
    compared_.pop_front();
    return comparison;
}

void ValueChunkPipeline::waitIdle() {
    // Every statement queued belongs to one of these futures.
    for (const auto& chunk : inFlight_) {
        chunk.upstream.wait();
        chunk.downstream.wait();
    }
    for (const auto& followUp : followUps_) {
        for (const auto* figures : {&followUp.upstreamSubParts, &followUp.downstreamSubParts}) {
            if (figures->valid()) {
                figures->wait();
            }
        }
        for (const auto* rows : {&followUp.upstreamRows, &followUp.downstreamRows}) {
            if (rows->valid()) {
                rows->wait();
            }
        }
    }
}

uint64_t ValueChunkPipeline::chunksLeft() const {
    return compared_.size() + followUps_.size() + inFlight_.size() + chunks_.chunksLeft(pacer_.chunkRows());
}

}  // namespace syncscope::verify
