// What the online DDL suite reads from the test pair: binlog points and events of the upstream, a table's
// whole state (rows, checksum, definition), a schema's tables, and DM's <task>_onlineddl rows downstream.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/source/upstream_connection.h"

namespace syncscope::test {

struct BinlogPoint {
    std::string file;
    uint64_t pos = 0;
    std::string text() const { return file + ":" + std::to_string(pos); }
};

struct BinlogEvent {
    BinlogPoint at;  // where the event starts
    std::string type;
    std::string info;
};

BinlogPoint masterPoint(source::UpstreamConnection& up);

// SHOW BINLOG EVENTS from `from` to the end of the newest file.
std::vector<BinlogEvent> binlogEventsSince(source::UpstreamConnection& up, const BinlogPoint& from);

// The events of `type` whose text contains `fragment`, in binlog order.
std::vector<BinlogEvent> eventsWith(const std::vector<BinlogEvent>& events, const std::string& type,
                                    const std::string& fragment);

// A query's single value, or "NULL", or "ERROR: ..." (a state to compare, never an exception).
std::string valueOf(source::UpstreamConnection& server, const std::string& sql);

// DROP and CREATE the schema without writing the binlog.
void resetSchema(source::UpstreamConnection& server, const std::string& schema);

// Drops every dm_meta table of the task (checkpoint, marks, <task>_onlineddl...).
void dropTaskMeta(source::UpstreamConnection& down, const std::string& task);

// SHOW CREATE TABLE without its AUTO_INCREMENT=N (which differs by design), or "ERROR: ...".
std::string tableDefinition(source::UpstreamConnection& server, const std::string& schema, const std::string& table);

// "rows N, checksum C\n<definition>".
std::string tableState(source::UpstreamConnection& server, const std::string& schema, const std::string& table);

std::vector<std::string> tablesIn(source::UpstreamConnection& server, const std::string& schema);

// Every table of the schema with its state: what "the downstream equals the upstream" compares.
std::string schemaState(source::UpstreamConnection& server, const std::string& schema);

// The task's <meta-schema>.<task>_onlineddl rows for `schema`, "ghost_table: ddls"; nullopt when that
// table does not exist.
std::optional<std::vector<std::string>> onlineDdlRows(source::UpstreamConnection& down, const std::string& task,
                                                      const std::string& schema);

std::string joined(const std::vector<std::string>& lines, const std::string& separator = "\n");

}  // namespace syncscope::test
