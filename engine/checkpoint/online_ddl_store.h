// The online schema changes a task is following (engine/task/online_ddl_tracker.h), kept in the downstream
// in DM's shape (dm/syncer/online-ddl-tools): `<meta-schema>`.`<task>_onlineddl`, one row per (source id,
// shadow schema, shadow table), `ddls` the JSON {"schema", "table", "ddls": [...]} of the real table and
// the DDLs recorded on the shadow, so that DM's state can be read here and ours by DM. Written with the
// checkpoint's flush, in its transaction: the recorded DDLs always match the persisted global point.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace sql {
class Connection;
}

namespace syncscope::checkpoint {

struct OnlineDdlEntry {
    std::string shadowSchema;
    std::string shadowTable;
    std::string realSchema;
    std::string realTable;
    std::vector<std::string> ddls;  // as read upstream, in order
    // Once the swap's DDLs are about to run: the real table's downstream definition before them (SHOW
    // CREATE TABLE), so that a replay of the swap after a kill judges them from it. Kept in the JSON as
    // "syncscope_swap_before" (DM reads past fields it does not know).
    std::string swapBefore;

    bool operator==(const OnlineDdlEntry&) const = default;
};

// One row to write with a flush: the entry, or its removal (nullopt) when the change ended.
struct OnlineDdlWrite {
    std::string shadowSchema;
    std::string shadowTable;
    std::optional<OnlineDdlEntry> entry;
};

class OnlineDdlStore {
public:
    static constexpr const char* kTableSuffix = "_onlineddl";

    // `connection` stays owned by the caller (the pipeline's control connection, which writes the flushes).
    OnlineDdlStore(sql::Connection& connection, std::string metaSchema, std::string taskName);

    const std::string& qualifiedName() const { return qualifiedName_; }

    // CREATE TABLE IF NOT EXISTS with DM's columns (the meta schema exists: CheckpointTable made it).
    void ensureTable();
    // Every entry of `sourceId`; a missing table has none. A row whose JSON cannot be read throws
    // CheckpointTableError naming it: a recorded DDL dropped would be lost at the swap.
    std::vector<OnlineDdlEntry> load(const std::string& sourceId);
    // Writes `writes` (REPLACE, or DELETE for a removal) without a transaction of its own: the caller's
    // flush holds one.
    void write(const std::string& sourceId, const std::vector<OnlineDdlWrite>& writes);
    // Deletes every entry of `sourceId`; a missing table is not an error.
    void remove(const std::string& sourceId);

    // The JSON DM keeps in `ddls`, and back (throws std::invalid_argument naming what is wrong).
    static std::string toJson(const OnlineDdlEntry& entry);
    static OnlineDdlEntry fromJson(const std::string& shadowSchema, const std::string& shadowTable,
                                   const std::string& json);

private:
    [[noreturn]] void fail(const std::string& what, const std::string& sql, int code,
                           const std::string& serverMessage) const;

    sql::Connection& connection_;
    std::string qualifiedName_;
};

}  // namespace syncscope::checkpoint
