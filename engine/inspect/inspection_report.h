// What checkpoint inspection found, as plain values for the GUI and the CLI: every source's global
// and table points of every checkpoint table read, and the anomalies a DBA must see.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/binlog/location.h"
#include "engine/binlog/position_axis.h"
#include "engine/inspect/checkpoint_row.h"
#include "engine/inspect/upstream_state.h"

namespace syncscope::inspect {

enum class AnomalyKind {
    TableAheadOfGlobal,      // a resume starts at the global point and skips this table's events up to its point
    TableUnorderedToGlobal,  // the table point and the global point cannot be ordered (GTIDs incomparable)
    BeyondUpstream,          // the point is past the upstream's current position
    UnorderedToUpstream,     // the point cannot be ordered against the upstream's position
    FileNotOnUpstream,       // the point's binlog file is purged or unknown to the upstream
    MissingGlobalRow,        // table rows without a global row: where a resume starts is unknown
    UnreadablePoint,         // the stored file, offset or GTID text cannot be parsed
};

// A stable name for scripts and JSON: "table-ahead-of-global", "missing-global-row", ...
const char* anomalyName(AnomalyKind kind);

// The events a resume from `from` would skip for one table: those after `from` up to and including `to`.
struct SkipWindow {
    binlog::Location from;                 // the global point, where a resume starts
    binlog::Location to;                   // the table point; this table's events in (from, to] are skipped
    std::optional<int64_t> bytes;          // binlog bytes between them (upstream's file sizes, or one file)
    std::optional<uint64_t> transactions;  // GTIDs in `to` not in `from`, where both carry GTIDs
    // Counted on the upstream's binlog (SHOW BINLOG EVENTS), when it still has every file of the window:
    std::optional<uint64_t> events;           // events in the window, file headers not counted
    std::optional<uint64_t> tableRowsEvents;  // rows events of this table among them: what a resume skips
    bool eventsCapped = false;                // the count stopped at its limit: "at least"
};

struct CheckpointAnomaly {
    AnomalyKind kind = AnomalyKind::UnreadablePoint;
    std::string message;  // one sentence for the DBA: what, where, why it matters
    std::optional<SkipWindow> skipWindow;
};

struct InspectedPoint {
    CheckpointRow row;               // as stored
    binlog::Location location;       // parsed; empty when unreadable
    binlog::Location exitSafePoint;  // global row only
    // On the upstream's axis, when an upstream was given and the file is one it has.
    std::optional<uint64_t> axisBytes;
    std::optional<binlog::AxisPlacement> placement;  // nullopt without an upstream
    std::vector<CheckpointAnomaly> anomalies;
};

// SyncScope's applied mark of a table without a key (engine/apply/applied_marks.h): that table's rows up to
// this row of this rows event are committed downstream, and a session that replays them (safe mode's
// window after an unclean stop) drops them. A DM deployment writes none.
struct InspectedAppliedMark {
    std::string schema;  // the target table, as routed
    std::string table;
    binlog::BinlogPosition event;  // the rows event's end position
    uint32_t row = 0;              // the row's index in that event
    std::optional<uint64_t> axisBytes;
    std::optional<binlog::AxisPlacement> placement;  // nullopt without an upstream
};

struct InspectedSource {
    std::string sourceId;
    std::optional<InspectedPoint> global;
    std::vector<InspectedPoint> tables;
    // From `<task>_syncscope_applied`; `appliedMarksProblem` says why they could not be read.
    std::vector<InspectedAppliedMark> appliedMarks;
    std::string appliedMarksProblem;
    std::vector<CheckpointAnomaly> anomalies;  // about the source as a whole (missing global row)
    bool checkedAgainstUpstream = false;

    size_t anomalyCount() const;
};

struct InspectedCheckpointTable {
    std::string metaSchema;
    std::string tableName;
    std::string taskName;
    std::string problem;  // why it could not be read; empty when it could
    std::vector<InspectedSource> sources;

    size_t anomalyCount() const;
};

struct InspectionReport {
    std::string target;  // user@host:port of the downstream
    std::optional<UpstreamState> upstream;
    std::vector<InspectedCheckpointTable> tables;

    size_t anomalyCount() const;
};

}  // namespace syncscope::inspect
