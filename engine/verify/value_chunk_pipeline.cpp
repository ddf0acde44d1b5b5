#include "engine/verify/value_chunk_pipeline.h"

#include <algorithm>
#include <string>

#include "engine/verify/row_diff.h"

namespace syncscope::verify {

namespace {

using Clock = std::chrono::steady_clock;

// Chunks cut by key value hold no rows in the client, so only chunkTime bounds them, up to
// maxValueChunkRows.
VerifySettings valueChunkSettings(const VerifySettings& settings) {
    VerifySettings valueSettings = settings;
    valueSettings.maxChunkRows = std::max(settings.maxValueChunkRows, settings.minChunkRows);
    return valueSettings;
}

uint64_t numberIn(const std::optional<std::string>& text) {
    return text ? std::stoull(*text) : 0;
}

}  // namespace

ValueChunkPipeline::ValueChunkPipeline(ServerSession& upstream, ServerSession& downstream, const ComparedTable& table,
                                       KeyValueChunks& chunks, const VerifySettings& settings,
                                       const std::atomic<bool>* cancel)
    : table_(table),
      chunks_(chunks),
      settings_(valueChunkSettings(settings)),
      cancel_(cancel),
      pacer_(settings_),
      parts_(settings_.chunkParts),
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
    if (cancelled() || !chunks_.next(pacer_.chunkRows())) {
        return std::nullopt;
    }
    ChunkInFlight chunk;
    chunk.width = chunks_.width();
    chunk.parts = chunks_.parts(parts_);
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

void ValueChunkPipeline::startListing(ChunkComparison comparison, const std::vector<KeyRange>& differingParts) {
    const ChunkSql sql(table_);
    ListingInFlight listing;
    listing.comparison = std::move(comparison);
    listing.upstream = upstreamWorker_.submit([query = sql.rowHashes(table_.upstreamName(), differingParts)](
                                                  ServerSession& session) { return session.query(query); });
    listing.downstream = downstreamWorker_.submit([query = sql.rowHashes(table_.downstreamName(), differingParts)](
                                                      ServerSession& session) { return session.query(query); });
    listing_ = std::move(listing);
}

ChunkComparison ValueChunkPipeline::finishListing() {
    ListingInFlight listing = std::move(*listing_);
    listing_.reset();
    const std::vector<RowValues> upstreamHashes = listing.upstream.get();
    const std::vector<RowValues> downstreamHashes = listing.downstream.get();
    listing.comparison.suspects = diffRowHashes(upstreamHashes, downstreamHashes);
    return std::move(listing.comparison);
}

void ValueChunkPipeline::advance() {
    if (inFlight_.empty()) {
        compared_.push_back(finishListing());  // the last chunk's listing
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
    pacer_.chunkTook(comparison.rows, upstream.took);
    startChunks();
    const PartFigures downstream = chunk.downstream.get();
    if (listing_) {
        compared_.push_back(finishListing());  // the previous chunk comes first
    }
    std::vector<KeyRange> differingParts;
    for (size_t part = 0; part < chunk.parts.size(); ++part) {
        if (upstream.parts[part] != downstream.parts[part]) {
            differingParts.push_back(chunk.parts[part]);
        }
    }
    // The chunks after those already started get finer parts where differences are spread.
    parts_ = differingParts.size() > 1 ? std::max(settings_.chunkParts, settings_.spreadDifferenceParts)
                                       : settings_.chunkParts;
    if (differingParts.empty()) {
        compared_.push_back(std::move(comparison));
        return;
    }
    comparison.differs = true;
    startListing(std::move(comparison), differingParts);
}

std::optional<ChunkComparison> ValueChunkPipeline::next() {
    if (!started_) {
        started_ = true;
        startChunks();
    }
    while (compared_.empty() && (!inFlight_.empty() || listing_) && !cancelled()) {
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
    if (listing_) {
        listing_->upstream.wait();
        listing_->downstream.wait();
    }
}

uint64_t ValueChunkPipeline::chunksLeft() const {
    return compared_.size() + (listing_ ? 1 : 0) + inFlight_.size() + chunks_.chunksLeft(pacer_.chunkRows());
}

}  // namespace syncscope::verify
