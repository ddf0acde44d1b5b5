// What the event browser shows of one binlog event and one transaction: positions, time, GTID, type,
// table and row count, and (on request) the decoded row images as text. Plain values that own their
// text, so a page of them can be handed to another thread or kept after the stream moved on.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace syncscope::browse {

// One changed row: column values as text (SQL-like: NULL, numbers bare, text quoted), empty when the
// image is not in the event (no before image for an insert, no after image for a delete).
struct RowImages {
    std::vector<std::string> before;
    std::vector<std::string> after;
    std::string keyText;  // the row's key value(s), comma-separated (see BrowseFilter::keyValue)
};

struct BrowsedEvent {
    std::string file;
    uint64_t pos = 0;     // start offset
    uint64_t endPos = 0;  // end offset
    uint32_t timestamp = 0;
    std::string gtid;  // of the transaction it belongs to ("" when none)
    std::string type;  // the server's name ("WRITE_ROWS_EVENT_V1", "QUERY_EVENT", ...)
    std::string schema;
    std::string table;
    std::string operation;  // "insert", "update", "delete" for rows events; "ddl" for a DDL statement
    uint64_t rowCount = 0;
    std::string summary;                   // the statement of a QUERY event, the GTID of a GTID event, ...
    std::vector<std::string> columnNames;  // when row images were asked for
    std::vector<RowImages> rows;           // when asked for (or when a key filter matched them)

    bool isRows() const { return operation == "insert" || operation == "update" || operation == "delete"; }
};

struct BrowsedTransaction {
    std::string file;        // where it starts
    uint64_t pos = 0;        // start offset of its first event (the GTID or BEGIN event)
    std::string endFile;     // where it ends (the same file but for a group spanning a rotation)
    uint64_t endPos = 0;     // end offset of its last event: a resume point
    uint32_t timestamp = 0;  // of its first event
    std::string gtid;
    bool complete = false;    // its end was read (false: cut by the end of the range)
    bool isMarker = false;    // not a transaction: an event between them (FORMAT_DESCRIPTION, ROTATE, ...)
    uint64_t eventCount = 0;  // every event it holds
    uint64_t rowCount = 0;    // rows of every rows event it holds
    uint64_t matchedEvents = 0;
    std::vector<BrowsedEvent> events;  // the events that matched the filter, at most the browser's cap
    bool eventsCapped = false;         // more matched than were kept
};

}  // namespace syncscope::browse
