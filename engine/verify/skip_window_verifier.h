// Verifies a skip window row by row: for a table point ahead of its global point (the rows a resume
// from the global point would skip, DM's issue 5279), decodes the upstream's binlog between the two
// points, keeps the final image of every row of that table changed in the window (or that it was
// deleted), and checks each against the downstream: present and equal, missing, different (columns
// named, compared by the downstream itself with <=>), or still there although deleted. The rows that
// differ can be repaired from their final images.
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "engine/apply/row_change.h"
#include "engine/binlog/location.h"
#include "engine/common/server_settings.h"
#include "engine/schema/table_name.h"

namespace syncscope::verify {

struct SkipWindowRequest {
    static constexpr uint64_t kDefaultMaxEvents = 5'000'000;

    ServerSettings upstream;  // its binlog is read with a binlog dump (REPLICATION SLAVE)
    ServerSettings downstream;
    schema::TableName table;                 // upstream name
    schema::TableName downstreamTable;       // routed name (empty schema: the same as `table`)
    binlog::Location from;                   // the global point (exclusive)
    binlog::Location to;                     // the table point (inclusive)
    uint64_t maxEvents = kDefaultMaxEvents;  // more than this in the window: a clear error, not a guess
};

enum class WindowRowState : uint8_t {
    Equal,       // the downstream holds the final image
    Missing,     // the row's final image is not downstream
    Different,   // the downstream row has the key, some columns differ
    NotDeleted,  // deleted in the window, still downstream
};

const char* windowRowStateName(WindowRowState state);  // "equal", "missing", "different", "not deleted"

struct WindowRow {
    std::vector<apply::SqlValue> key;    // the key values (row key columns)
    std::vector<apply::SqlValue> image;  // the final image; empty when the row was deleted
    std::string lastChange;              // "mysql-bin.000003:1234" of the window's last change of this row
    WindowRowState state = WindowRowState::Equal;
    std::vector<std::string> differingColumns;
};

struct SkipWindowReport {
    schema::TableName table;
    schema::TableName downstreamTable;
    binlog::Location from;
    binlog::Location to;
    std::vector<std::string> columns;
    std::vector<size_t> keyColumns;
    uint64_t eventsRead = 0;
    uint64_t rowChanges = 0;      // row changes of this table in the window
    std::vector<WindowRow> rows;  // one per key changed in the window, in order of first change

    size_t wrongRows() const;  // every row not Equal
    // The changes that make the downstream hold the window's final images (INSERT, UPDATE, DELETE).
    std::vector<apply::RowChange> repairChanges() const;
};

class SkipWindowVerifier {
public:
    // Throws VerifyError: a window that cannot be read (purged files, a point beyond the upstream's
    // position, a table without a key or with an image that is not FULL, a structure that changed).
    SkipWindowReport verify(const SkipWindowRequest& request);
    void setCancelFlag(const std::atomic<bool>* cancel) { cancel_ = cancel; }

private:
    const std::atomic<bool>* cancel_ = nullptr;
};

}  // namespace syncscope::verify
