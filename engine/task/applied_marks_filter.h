// The pipeline's side of applied marks (engine/apply/applied_marks.h): which rows of tables without a key
// record a mark, and which rows of a replay are already downstream. A replay happens only in safe mode's
// window after an unclean stop (global point to exit-safe point): every row sent before the stop lies there,
// so a mark is trusted only there; outside the window every row is applied.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/apply/applied_marks.h"
#include "engine/apply/row_change.h"
#include "engine/binlog/location.h"

namespace syncscope::task {

class AppliedMarksFilter {
public:
    explicit AppliedMarksFilter(std::string taskName) : taskName_(std::move(taskName)) {}

    // The marks read at a session's start; those at or before the global point are never reached again.
    void reset(apply::AppliedMarks marks, const binlog::Location& global);

    // The changes of one rows event that ends at `eventEnd`: rows of a table without a key record their
    // mark; inside the replay window, those at or before their table's mark are removed (committed
    // before the stop). Returns how many were removed.
    size_t filter(std::vector<apply::RowChange>& changes, const binlog::BinlogPosition& eventEnd, bool inReplayWindow);
    // The same for an XA branch's changes, applied at its XA COMMIT `commit`: their marks are taken there,
    // numbered in the branch, so a table's marks follow the order its rows commit in.
    size_t filterBranch(std::vector<apply::RowChange>& changes, const apply::SourcePoint& commit, bool inReplayWindow);

    size_t marksLeft() const { return marks_.size(); }

private:
    struct Replay {
        apply::AppliedMark mark;
        uint64_t skipped = 0;
    };
    // The table's replay passed its mark: logs what was not applied again and forgets the mark.
    void passed(std::map<schema::TableName, Replay>::iterator table);

    std::string taskName_;
    std::map<schema::TableName, Replay> marks_;
};

}  // namespace syncscope::task
