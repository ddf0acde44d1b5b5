// The loader's checkpoint in DM's shape (pingcap/tiflow dm/loader/checkpoint.go):
// `<meta-schema>`.`<task>_loader_checkpoint`, one row per (source id, chunk "filename") with
// cp_schema, cp_table, offset and end_pos, plus SyncScope's columns: the chunk's key range, the
// routed target, rows done and the snapshot point its rows were read at. A chunk's row is marked done
// in the same downstream transaction as the chunk's rows, so a crash leaves each chunk either wholly
// loaded and marked, or not loaded and pending.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "engine/load/load_plan.h"

namespace sql {
class Connection;
}

namespace syncscope::load {

// "<task>_loader_checkpoint", DM's name.
std::string loaderCheckpointTableName(const std::string& task);

class LoaderCheckpoint {
public:
    // `connection` stays owned by the caller; used by one thread at a time.
    LoaderCheckpoint(sql::Connection& connection, std::string metaSchema, std::string taskName);

    const std::string& qualifiedName() const { return qualifiedName_; }

    void ensureTable();
    // Every chunk of `sourceId`, in name order; empty when no plan was saved.
    std::vector<LoadChunk> load(const std::string& sourceId);
    // The whole plan, every chunk pending, in one transaction.
    void savePlan(const std::string& sourceId, const std::vector<LoadChunk>& chunks);
    // A walked table's chunks in place of its pending whole-table chunk, in one transaction: the first
    // (same name) gets its upper bound, the others are added. Throws LoadError when that chunk is not
    // pending and whole any more.
    void refinePlan(const std::string& sourceId, const std::vector<LoadChunk>& walked);
    // The UPDATE that marks `chunk` done, for the worker to run inside the chunk's own transaction
    // (it changes exactly one row when the plan is in place).
    std::string markDoneStatement(const std::string& sourceId, const LoadChunk& chunk) const;
    // Deletes the plan of `sourceId` (--remove-meta); a missing table is not an error.
    void remove(const std::string& sourceId);

private:
    // Runs `body` (which leaves the statement it is at in `sql`) in one transaction; rolls back and
    // throws LoadError naming `what` and that statement on an SQL error.
    void inTransaction(const std::string& what, const std::function<void(std::string& sql)>& body);
    void insertChunks(const std::string& sourceId, std::span<const LoadChunk> chunks, std::string& sql);
    [[noreturn]] void fail(const std::string& what, const std::string& sql, int code, const std::string& message) const;

    sql::Connection& connection_;
    std::string metaSchema_;
    std::string taskName_;
    std::string qualifiedName_;
};

}  // namespace syncscope::load
