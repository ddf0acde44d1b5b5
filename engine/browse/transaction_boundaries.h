// Where binlog transactions (event groups) start and end, from the events alone: a GTID event or
// BEGIN opens one; XID, COMMIT, ROLLBACK, XA PREPARE/COMMIT/ROLLBACK, or the statement of a standalone
// group (DDL) closes it; a DDL outside any group is a group of its own.
#pragma once

#include "engine/binlog/event.h"

namespace syncscope::browse {

class TransactionBoundaries {
public:
    enum class Step {
        Outside,        // between groups (FORMAT_DESCRIPTION, ROTATE, GTID_LIST, ...)
        Starts,         // the group's first event
        Inside,         // in the middle of a group
        Ends,           // the group's last event: its end position is a resume point
        StartsAndEnds,  // a group of one event (a DDL without GTIDs)
    };

    Step step(const binlog::Event& event);
    bool inTransaction() const { return inside_; }
    void reset() { *this = TransactionBoundaries(); }

private:
    Step onQuery(const binlog::QueryEvent& query);
    Step end() {
        inside_ = false;
        return Step::Ends;
    }

    bool inside_ = false;
    bool standalone_ = false;  // MariaDB FL_STANDALONE: the group's one statement ends it
    bool sawBegin_ = false;
};

}  // namespace syncscope::browse
