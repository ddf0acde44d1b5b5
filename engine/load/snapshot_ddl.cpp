#include "engine/load/snapshot_ddl.h"

namespace syncscope::load {

namespace {

constexpr unsigned kTableDefinitionChanged = 1412;  // ER_TABLE_DEF_CHANGED
constexpr unsigned kNoSuchTable = 1146;             // ER_NO_SUCH_TABLE

}  // namespace

bool changedAfterSnapshot(unsigned code) {
    return code == kTableDefinitionChanged || code == kNoSuchTable;
}

LoadError changedAfterSnapshotError(const TableName& table, const binlog::Location& snapshotPoint,
                                    const std::string& reading, const std::string& serverMessage) {
    return LoadError(
        "load: upstream table " + table.quoted() + " was changed by DDL (ALTER, TRUNCATE, RENAME or " +
            "DROP) after the load's snapshot at " + snapshotPoint.toString() +
            ", so the snapshot can no longer read it (" + reading + ": " + serverMessage +
            "). Its rows not yet copied cannot be read as of the snapshot point; nothing of the chunks "
            "being copied was written, the committed chunks stay. Start the load over: stop the task, drop "
            "the load's target tables and start it again with --remove-meta (the new snapshot sees the new "
            "definition); keep DDL away from the loaded tables until the load has finished",
        false);
}

}  // namespace syncscope::load
