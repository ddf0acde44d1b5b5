// What a skip or a resume-from would leave out (or apply again) before the DBA confirms it: the
// transactions of the upstream's binlog between two points and, for every table they change, each row's
// final image in the window checked against the downstream (there and equal, missing, different, still
// there although deleted), with the SQL that re-applies every row not equal downstream as idempotent
// upserts: the file a DBA keeps with the audit entry, so that a skip can be undone.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "engine/binlog/location.h"
#include "engine/common/server_settings.h"
#include "engine/schema/table_name.h"
#include "engine/verify/skip_window_verifier.h"

namespace syncscope::verify {

struct WindowPreviewRequest {
    ServerSettings upstream;  // its binlog is read with a binlog dump (REPLICATION SLAVE)
    ServerSettings downstream;
    binlog::BinlogPosition from;  // a transaction boundary: the window starts after it
    binlog::BinlogPosition to;    // inclusive: the end of the window's last transaction
    // The task's route (upstream name -> downstream name); unset: the same names.
    std::function<schema::TableName(const schema::TableName&)> route;
    // The task's block-allow list: rows of a table it does not replicate are not the task's to skip.
    // Unset: every table.
    std::function<bool(const schema::TableName&)> replicated;
    uint64_t maxEvents = SkipWindowRequest::kDefaultMaxEvents;
};

struct WindowTransaction {
    binlog::BinlogPosition start;
    binlog::BinlogPosition end;
    std::string gtid;        // "0-1-5" or "uuid:7"; empty without GTIDs
    uint32_t timestamp = 0;  // of its first event
    uint64_t rowChanges = 0;
    std::vector<std::string> tables;  // "db.t" in first-change order
};

// A table whose rows could not be checked (no key, dropped since, its image not FULL), and why.
struct WindowTableProblem {
    schema::TableName table;
    std::string reason;
};

struct WindowPreview {
    binlog::BinlogPosition from;
    binlog::BinlogPosition to;
    uint64_t eventsRead = 0;
    std::vector<WindowTransaction> transactions;
    std::vector<SkipWindowReport> tables;  // one per table with rows in the window (rows in first-change order)
    std::vector<WindowTableProblem> problems;

    size_t rowsIn(WindowRowState state) const;
    size_t rowCount() const;
    // Idempotent statements (an upsert per row not equal downstream, a DELETE per row deleted in the window
    // but still there), one per line, after a comment header naming the window and `why`. Empty of
    // statements when every row is equal downstream.
    std::string replaySql(const std::string& why) const;
};

class WindowPreviewer {
public:
    // Throws VerifyError: a window that cannot be read (not forward, beyond the upstream's end, purged,
    // more than maxEvents events). A table that cannot be checked is a problem in the preview instead.
    WindowPreview preview(const WindowPreviewRequest& request);
    void setCancelFlag(const std::atomic<bool>* cancel) { cancel_ = cancel; }

private:
    const std::atomic<bool>* cancel_ = nullptr;
};

}  // namespace syncscope::verify
