#include "engine/load/snapshot_loader.h"

#include <cppconn/connection.h>

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "engine/apply/downstream_connection.h"
#include "engine/apply/error_class.h"
#include "engine/load/chunk_copier.h"
#include "engine/load/chunk_queue.h"
#include "engine/load/consistent_snapshot.h"
#include "engine/load/literal_row_reader.h"
#include "engine/load/load_error.h"
#include "engine/load/loader_checkpoint.h"
#include "engine/load/schema_objects.h"
#include "engine/load/snapshot_ddl.h"
#include "engine/load/table_catalog.h"
#include "engine/load/target_schema_writer.h"

namespace syncscope::load {

namespace {

// How often the coordinating thread looks at the DBA's interrupt while the workers copy.
constexpr std::chrono::milliseconds kInterruptPoll{50};

LoadError asLoadError(const std::exception& e) {
    if (const auto* load = dynamic_cast<const LoadError*>(&e)) {
        return *load;
    }
    int code = 0;
    if (const auto* up = dynamic_cast<const source::UpstreamError*>(&e)) {
        code = static_cast<int>(up->code());
    } else if (const auto* down = dynamic_cast<const apply::DownstreamError*>(&e)) {
        code = down->code();
    }
    return LoadError(std::string("load: ") + e.what(),
                     code != 0 && apply::classifyDownstreamError(code) == apply::ErrorClass::Retryable);
}

}  // namespace

SnapshotLoader::SnapshotLoader(LoadSettings settings, LoadProgress& progress)
    : settings_(std::move(settings)), progress_(progress) {}

void SnapshotLoader::removePlan() {
    auto downstream = apply::connectDownstream(settings_.downstream);
    LoaderCheckpoint(*downstream, settings_.metaSchema, settings_.taskName).remove(settings_.sourceId);
}

namespace {

// "'user'@'host'" of the session, as information_schema's GRANTEE columns spell it.
constexpr const char* kGrantee =
    "CONCAT(QUOTE(SUBSTRING_INDEX(CURRENT_USER(), '@', 1)), '@', QUOTE(SUBSTRING_INDEX(CURRENT_USER(), '@', -1)))";

std::vector<std::string> column(const std::vector<source::Row>& rows) {
    std::vector<std::string> values;
    for (const auto& row : rows) {
        if (!row.empty() && row[0]) {
            values.push_back(*row[0]);
        }
    }
    return values;
}

}  // namespace

bool SnapshotLoader::requireGlobalPrivileges(source::UpstreamConnection& upstream) const {
    std::vector<std::string> held = column(upstream.query(
        std::string("SELECT PRIVILEGE_TYPE FROM information_schema.USER_PRIVILEGES WHERE GRANTEE = ") + kGrantee));
    auto holds = [&](const std::string& privilege) {
        return std::find(held.begin(), held.end(), privilege) != held.end();
    };
    if (!holds("RELOAD")) {
        throw LoadError("load: the upstream user " + settings_.upstream.describe() +
                        " lacks RELOAD on *.*, which FLUSH TABLES WITH READ LOCK needs for the instant in which the "
                        "load's connections open one consistent snapshot; run GRANT RELOAD ON *.* TO '" +
                        settings_.upstream.user + "'@'<host>', then resume");
    }
    return holds("SELECT");
}

void SnapshotLoader::requireSelect(source::UpstreamConnection& upstream, bool globalSelect,
                                   const std::vector<LoadTable>& tables) const {
    const std::string grantTo = " TO '" + settings_.upstream.user + "'@'<host>'";
    if (globalSelect) {
        return;
    }
    if (tables.empty()) {
        throw LoadError("load: the upstream user " + settings_.upstream.describe() +
                        " sees no table that the block-allow list selects, and it lacks SELECT on *.*: tables of "
                        "schemas it holds no grant on are invisible to it. Run GRANT SELECT ON <schema>.*" +
                        grantTo + " for each schema the task copies (or GRANT SELECT ON *.*), then resume");
    }
    std::set<std::string> schemas;
    for (const LoadTable& table : tables) {
        schemas.insert(table.upstream.schema);
    }
    for (const std::string& schema : schemas) {
        // A schema-level grant may name a pattern (`shop\_%`): the server matches it with LIKE.
        std::string held = upstream
                               .queryValue(std::string("SELECT COUNT(*) FROM information_schema.SCHEMA_PRIVILEGES "
                                                       "WHERE PRIVILEGE_TYPE = 'SELECT' AND GRANTEE = ") +
                                           kGrantee + " AND " + sqlString(schema) + " LIKE TABLE_SCHEMA")
                               .value_or("0");
        if (held != "0") {
            continue;
        }
        std::vector<std::string> granted = column(upstream.query(
            std::string("SELECT CONCAT(TABLE_SCHEMA, '.', TABLE_NAME) FROM information_schema.TABLE_PRIVILEGES WHERE "
                        "PRIVILEGE_TYPE = 'SELECT' AND GRANTEE = ") +
            kGrantee + " AND TABLE_SCHEMA = " + sqlString(schema) + " ORDER BY TABLE_NAME"));
        std::string list;
        for (const std::string& table : granted) {
            list += (list.empty() ? "" : ", ") + table;
        }
        throw LoadError("load: the upstream user " + settings_.upstream.describe() + " lacks SELECT on " +
                        TableName::quote(schema) + ".* (it may read only " + (list.empty() ? "some columns" : list) +
                        "): a table it may not read is invisible to it and would be left out of the load without a "
                        "word; run GRANT SELECT ON " +
                        TableName::quote(schema) + ".*" + grantTo + " (or ON *.*), then resume");
    }
}

void SnapshotLoader::requirePointKept(const ServerSettings& upstreamSettings, const binlog::Location& point) {
    source::UpstreamConnection upstream(upstreamSettings);
    std::vector<std::string> files;
    for (const auto& row : upstream.query("SHOW BINARY LOGS")) {
        if (!row.empty() && row[0]) {
            files.push_back(*row[0]);
        }
    }
    if (std::find(files.begin(), files.end(), point.position().file()) != files.end()) {
        return;
    }
    throw LoadError("load: the snapshot point " + point.toString() + " is in binlog file " + point.position().file() +
                    ", which the upstream " + upstreamSettings.describe() +
                    " no longer has (purged; oldest kept: " + (files.empty() ? std::string("none") : files.front()) +
                    "): the loaded rows cannot be brought up to date from it. Start over: stop the task, empty the "
                    "target tables and run it again with --remove-meta (and keep binlogs longer than a load takes)");
}

void SnapshotLoader::warnAboutTargetsHoldingRows(const std::vector<TableName>& targets) const {
    if (targets.empty()) {
        return;
    }
    std::string list;
    for (const TableName& target : targets) {
        list += (list.empty() ? "" : ", ") + target.quoted();
    }
    const char* meaning = settings_.copy.onDuplicate == DuplicateRule::Replace
                              ? "a copied row replaces the target's row with the same key"
                          : settings_.copy.onDuplicate == DuplicateRule::Ignore
                              ? "the target's row with the same key stays and the copied one is dropped"
                              : "a copied row with the key of a target row stops the load";
    spdlog::warn(
        "task {}: target tables already hold rows before the load: {}. on-duplicate-logical is {}: {}; a row "
        "only the target has stays, and a table without a key gets the copied rows beside its own, so these "
        "tables will not equal the upstream unless emptied before the load",
        settings_.taskName, list, duplicateRuleName(settings_.copy.onDuplicate), meaning);
}

LoadResult SnapshotLoader::summarize(const std::vector<LoadChunk>& chunks) const {
    LoadResult result;
    result.finished = true;
    std::set<std::string> tables;
    for (const LoadChunk& chunk : chunks) {
        tables.insert(chunk.upstream.quoted());
        result.rows += chunk.rowsDone;
        result.bytes += chunk.bytesDone;
        if (result.earliestPoint.isEmpty() ||
            chunk.loadedAt.compare(result.earliestPoint) == binlog::PositionOrder::Before) {
            result.earliestPoint = chunk.loadedAt;
        }
        if (result.latestPoint.isEmpty() ||
            chunk.loadedAt.compare(result.latestPoint) == binlog::PositionOrder::After) {
            result.latestPoint = chunk.loadedAt;
        }
    }
    for (const LoadChunk& chunk : chunks) {
        if (chunk.keyColumns.empty() && chunk.loadedAt.compare(result.earliestPoint) == binlog::PositionOrder::After) {
            result.keylessTablePoints.emplace_back(chunk.upstream, chunk.loadedAt);
        }
    }
    result.tables = tables.size();
    return result;
}

namespace {

// A planning query's failure: a table changed by DDL since the snapshot named as such.
LoadError planningError(const source::UpstreamError& e, const LoadTable& table, const binlog::Location& snapshotPoint) {
    return changedAfterSnapshot(e.code())
               ? changedAfterSnapshotError(table.upstream, snapshotPoint, "planning its chunks", e.what())
               : asLoadError(e);
}

}  // namespace

std::vector<LoadChunk> SnapshotLoader::planTables(const std::vector<LoadTable>& tables,
                                                  const binlog::Location& snapshotPoint) const {
    // Not on the snapshot's connections: a table a snapshot transaction has read holds back every DDL
    // on it (metadata lock) until the load ends, and the writers queued behind that DDL with it.
    source::UpstreamConnection upstream(settings_.upstream);
    std::vector<LoadChunk> chunks;
    for (const LoadTable& table : tables) {
        try {
            std::vector<LoadChunk> planned = planChunks(upstream, table, chunkRowsOf(table));
            chunks.insert(chunks.end(), planned.begin(), planned.end());
        } catch (const source::UpstreamError& e) {
            throw planningError(e, table, snapshotPoint);
        }
    }
    return chunks;
}

uint64_t SnapshotLoader::chunkRowsOf(const LoadTable& table) const {
    return rowsPerChunk(table, settings_.chunkRows, settings_.chunkBytes);
}

size_t SnapshotLoader::chunksToCopy(const std::vector<LoadChunk>& chunks) const {
    size_t count = 0;
    for (const LoadChunk& chunk : chunks) {
        if (!chunk.done) {
            // A pending whole-table chunk of a keyed table may be walked into chunks of chunkRows.
            bool whole = !chunk.lower && !chunk.upper && !chunk.keyColumns.empty();
            count +=
                whole ? std::max<uint64_t>(1, chunk.estimatedRows / std::max<uint64_t>(1, settings_.chunkRows)) : 1;
        }
    }
    return count;
}

bool SnapshotLoader::heldForWalk(const LoadChunk& chunk, const std::map<std::string, LoadTable>& tablesByName) const {
    if (chunk.done || chunk.lower || chunk.upper) {
        return false;
    }
    auto table = tablesByName.find(chunk.upstream.quoted());
    return table != tablesByName.end() && table->second.keyColumns == chunk.keyColumns &&
           needsKeyWalk(table->second, chunkRowsOf(table->second));
}

void SnapshotLoader::copyChunks(ChunkQueue& queue, ConsistentSnapshot& snapshot,
                                const std::map<std::string, LoadTable>& tablesByName, LoaderCheckpoint& checkpoint,
                                const std::atomic<bool>& interrupt) {
    std::atomic<bool> halt{false};
    std::mutex mutex;  // guards running, firstError and the checkpoint's own connection
    std::condition_variable ended;
    std::optional<LoadError> firstError;
    auto failWith = [&](LoadError error) {
        std::lock_guard lock(mutex);
        if (!firstError) {
            firstError = std::move(error);
        }
        halt = true;
    };

    // The copying workers, one per snapshot connection.
    std::vector<std::function<void()>> jobs;
    for (size_t w = 0; w < snapshot.connections.size(); ++w) {
        jobs.emplace_back([&, w] {
            TargetSession session(settings_.downstream);
            ChunkCopier copier(session, checkpoint, settings_.sourceId, settings_.copy);
            while (LoadChunk* chunk = queue.next(halt)) {
                if (!copier.copy(*snapshot.connections[w], tablesByName.at(chunk->upstream.quoted()), *chunk,
                                 snapshot.point, halt, progress_)) {
                    break;
                }
            }
        });
    }
    // The key walks, on connections of their own (as planTables), while the workers copy what is planned.
    const std::vector<LoadChunk*>& held = queue.heldForWalk();
    std::atomic<size_t> nextWalk{0};
    for (size_t p = 0; p < std::min(settings_.threads, held.size()); ++p) {
        jobs.emplace_back([&] {
            source::UpstreamConnection upstream(settings_.upstream);
            for (size_t i = nextWalk++; i < held.size(); i = nextWalk++) {
                LoadChunk& whole = *held[i];
                const LoadTable& table = tablesByName.at(whole.upstream.quoted());
                std::optional<std::vector<LoadChunk>> walked;
                try {
                    auto started = std::chrono::steady_clock::now();
                    walked = walkChunks(upstream, table, chunkRowsOf(table), halt);
                    if (walked) {
                        // As the plan has them, should the table's route have changed since it was saved.
                        walked->front().name = whole.name;
                        for (LoadChunk& chunk : *walked) {
                            chunk.target = whole.target;
                        }
                    }
                    if (walked && walked->size() > 1) {
                        std::lock_guard lock(mutex);
                        checkpoint.refinePlan(settings_.sourceId, *walked);
                        progress_.chunksAdded(table.upstream, static_cast<uint32_t>(walked->size() - 1));
                        spdlog::info("task {}: {} planned in {} chunks by walking its key ({:.1f} s)",
                                     settings_.taskName, table.upstream.quoted(), walked->size(),
                                     std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
                    }
                } catch (const source::UpstreamError& e) {
                    failWith(planningError(e, table, snapshot.point));
                    walked.reset();
                }
                queue.walkEnded(whole, walked ? std::move(*walked) : std::vector<LoadChunk>{});
            }
        });
    }

    size_t running = jobs.size();
    std::vector<std::thread> threads;
    for (auto& job : jobs) {
        threads.emplace_back([&, job] {
            try {
                job();
            } catch (const std::exception& e) {
                failWith(asLoadError(e));
            }
            std::lock_guard lock(mutex);
            --running;
            ended.notify_all();
        });
    }
    {
        std::unique_lock lock(mutex);
        while (running > 0) {
            if (interrupt) {
                halt = true;
            }
            ended.wait_for(lock, kInterruptPoll);
        }
    }
    for (auto& thread : threads) {
        thread.join();
    }
    if (firstError) {
        throw *firstError;
    }
}

namespace {

std::map<std::string, LoadTable> byQuotedName(const std::vector<LoadTable>& tables) {
    std::map<std::string, LoadTable> named;
    for (const LoadTable& table : tables) {
        named.emplace(table.upstream.quoted(), table);
    }
    return named;
}

// The tables whose targets are created or checked before copying: all of a new plan, else those
// with chunks left. A table whose chunks are all committed may have changed upstream since: the DDL
// is in the binlog after its snapshot and incremental replication replays it onto the target.
std::vector<LoadTable> tablesToWrite(const std::vector<LoadTable>& tables, const std::vector<LoadChunk>& chunks) {
    if (chunks.empty()) {
        return tables;
    }
    std::set<std::string> pending;
    for (const LoadChunk& chunk : chunks) {
        if (!chunk.done) {
            pending.insert(chunk.upstream.quoted());
        }
    }
    std::vector<LoadTable> wanted;
    for (const LoadTable& table : tables) {
        if (pending.contains(table.upstream.quoted())) {
            wanted.push_back(table);
        }
    }
    return wanted;
}

// Upstream tables (quoted) with a chunk committed at an earlier snapshot.
std::vector<std::string> tablesCopiedBefore(const std::vector<LoadChunk>& chunks) {
    std::set<std::string> copied;
    for (const LoadChunk& chunk : chunks) {
        if (chunk.done) {
            copied.insert(chunk.upstream.quoted());
        }
    }
    return {copied.begin(), copied.end()};
}

}  // namespace

LoadResult SnapshotLoader::run(const std::atomic<bool>& interrupt) {
    try {
        progress_.setUnit(kUnitDump);
        source::UpstreamConnection upstream(settings_.upstream);
        bool globalSelect = requireGlobalPrivileges(upstream);
        std::vector<LoadTable> visible = discoverTables(upstream, *settings_.blockAllow, *settings_.router);
        requireSelect(upstream, globalSelect, visible);
        if (std::vector<std::string> skipped = objectsNotCopied(upstream, visible); !skipped.empty()) {
            std::string list;
            for (const std::string& object : skipped) {
                list += (list.empty() ? "" : ", ") + object;
            }
            spdlog::warn(
                "task {}: the load copies tables only, not {} (a trigger or event downstream would change "
                "replicated rows a second time; a view's or routine's body names upstream schemas that routes "
                "may rename): create those downstream yourself where you want them",
                settings_.taskName, list);
            progress_.setNotCopied(std::move(skipped));
        }

        auto downstream = apply::connectDownstream(settings_.downstream);
        LoaderCheckpoint checkpoint(*downstream, settings_.metaSchema, settings_.taskName);
        checkpoint.ensureTable();
        std::vector<LoadChunk> chunks = checkpoint.load(settings_.sourceId);
        const bool newPlan = chunks.empty();
        size_t pendingCount = static_cast<size_t>(
            std::count_if(chunks.begin(), chunks.end(), [](const LoadChunk& c) { return !c.done; }));
        if (!newPlan && pendingCount == 0) {
            progress_.setPlan(chunks, byQuotedName(visible));
            LoadResult result = summarize(chunks);
            progress_.setFinished();
            return result;
        }

        // The tables, their definitions and the plan as of the snapshot: a DDL just before it is in the
        // targets, one after it is in the binlog that incremental replication replays onto them.
        std::vector<LoadTable> tables;
        TableDefinitions definitions;
        size_t workers =
            std::max<size_t>(1, std::min(settings_.threads, newPlan ? settings_.threads : chunksToCopy(chunks)));
        ConsistentSnapshot snapshot = openConsistentSnapshot(
            settings_.upstream, workers, settings_.enableGtid, [&](source::UpstreamConnection& locked) {
                tables = discoverTables(locked, *settings_.blockAllow, *settings_.router);
                definitions = readTableDefinitions(locked, tablesToWrite(tables, chunks));
            });
        progress_.setSnapshot(snapshot.point.toString(), static_cast<double>(snapshot.writersBlocked.count()) / 1000.0);
        std::map<std::string, LoadTable> tablesByName = byQuotedName(tables);
        for (const LoadChunk& chunk : chunks) {
            if (!chunk.done && !tablesByName.contains(chunk.upstream.quoted())) {
                throw LoadError("load: the saved plan has chunks left of " + chunk.upstream.quoted() + " (chunk " +
                                chunk.name + "), which the upstream no longer has at the snapshot " +
                                snapshot.point.toString() +
                                " (dropped or renamed since the load began, or no longer allowed by the block-allow "
                                "list): start the load over with --remove-meta and empty target tables");
            }
        }
        writeTargetSchemas(*downstream, tablesToWrite(tables, chunks), definitions, tablesCopiedBefore(chunks));
        if (newPlan) {
            warnAboutTargetsHoldingRows(targetsHoldingRows(*downstream, tables));
            chunks = planTables(tables, snapshot.point);
            checkpoint.savePlan(settings_.sourceId, chunks);
            size_t walks = static_cast<size_t>(std::count_if(
                chunks.begin(), chunks.end(), [&](const LoadChunk& c) { return heldForWalk(c, tablesByName); }));
            spdlog::info("task {}: load plan saved: {} tables in {} chunks of about {} in {}{}", settings_.taskName,
                         tables.size(), chunks.size(),
                         settings_.chunkBytes > 0 ? std::to_string(settings_.chunkBytes) + " bytes"
                                                  : std::to_string(settings_.chunkRows) + " rows",
                         checkpoint.qualifiedName(),
                         walks > 0 ? "; the keys of " + std::to_string(walks) +
                                         " tables are walked for their chunks while the others are copied"
                                   : std::string());
        }
        progress_.setPlan(chunks, tablesByName);

        const bool anyPending = std::any_of(chunks.begin(), chunks.end(), [](const LoadChunk& c) { return !c.done; });
        ChunkQueue queue(std::move(chunks), [&](const LoadChunk& c) { return heldForWalk(c, tablesByName); });
        if (anyPending) {
            progress_.setUnit(kUnitLoad);
            copyChunks(queue, snapshot, tablesByName, checkpoint, interrupt);
        }
        chunks = queue.plan();
        if (std::any_of(chunks.begin(), chunks.end(), [](const LoadChunk& c) { return !c.done; })) {
            return {};  // interrupted; the committed chunks stay done
        }
        LoadResult result = summarize(chunks);
        progress_.setFinished();
        return result;
    } catch (const std::exception& e) {
        throw asLoadError(e);
    }
}

}  // namespace syncscope::load
