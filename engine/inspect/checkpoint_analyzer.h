// Turns the raw rows of checkpoint tables into an inspection report: groups them by source, parses
// the points and flags what a DBA must see (docs/design.md invariant 3: a table point ahead of the global
// point is a window of events a resume would skip). No I/O, so it is tested without servers.
#pragma once

#include <optional>
#include <string>

#include "engine/inspect/inspection_report.h"

namespace syncscope::inspect {

struct AnalysisOptions {
    // Where the upstream stands and which files it has; without it only the points are compared.
    std::optional<UpstreamState> upstream;
    // The source whose upstream that is; empty: every source of the table is checked against it.
    std::string upstreamSourceId;
};

InspectedCheckpointTable analyzeCheckpointTable(const CheckpointTableRows& table, const AnalysisOptions& options);

// The skip window between a global point and a table point, with bytes and transactions where known.
SkipWindow skipWindowBetween(const binlog::Location& globalPoint, const binlog::Location& tablePoint,
                             const binlog::PositionAxis* axis);

// "1200 bytes, 3 transactions, 9 events, 2 of them rows events of this table" / "size unknown".
std::string describeSkipWindow(const SkipWindow& window);
// The TableAheadOfGlobal message for `table`'s row (rebuilt once the window's events are counted).
std::string describeTableAheadOfGlobal(const CheckpointRow& table, const SkipWindow& window);

}  // namespace syncscope::inspect
