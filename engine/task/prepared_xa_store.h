// XA branches prepared upstream whose outcome has not been read yet, and the rows of the branch being read
// (from XA START to XA PREPARE). Their row changes wait here: the downstream gets them only when XA COMMIT
// is read, never at XA PREPARE, so an XA ROLLBACK leaves nothing behind (docs/design.md invariant 9). While any branch
// waits, the checkpoint is held at the start of the oldest one, so that a restart (a kill, a pause, an error) reads
// every waiting branch again; the points that groups after it reach are kept aside and handed over once nothing older
// waits.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/apply/row_change.h"
#include "engine/binlog/location.h"
#include "engine/checkpoint/checkpoint_tracker.h"

namespace syncscope::task {

using TablePoints = std::map<checkpoint::TableName, binlog::Location>;

// Points the checkpoint tracker may take now.
struct HeldPointsRelease {
    std::optional<binlog::Location> global;
    TablePoints tables;
    bool empty() const { return !global && tables.empty(); }
};

struct PreparedBranch {
    uint64_t groupSeq = 0;
    binlog::BinlogPosition prepareStart;  // where the branch's group begins, for messages
    std::vector<apply::RowChange> changes;
    std::vector<checkpoint::TableName> tables;  // upstream tables of the changes
    // The points as they stood right before the branch's group: where a restart must begin.
    binlog::Location globalBefore;
    TablePoints tablesBefore;
};

class PreparedXaStore {
public:
    // Whether the checkpoint is held (some branch waits).
    bool holding() const { return !branches_.empty(); }
    size_t waiting() const { return branches_.size(); }
    // The row changes that wait: the prepared branches' and the branch being read.
    size_t waitingChanges() const;

    // The branch being read: its rows are built into `readingChanges()`, its tables noted. A group that
    // opens discards what a branch cut short left.
    std::vector<apply::RowChange>& readingChanges() { return reading_.changes; }
    void readingTouches(const checkpoint::TableName& table);
    void discardReading();
    // XA PREPARE ended the branch being read, the group `groupSeq` from `start`: it waits for its outcome
    // (when it has rows; `trackerGlobal`: see globalBefore()). Returns how many rows wait.
    size_t prepareReading(const std::string& branch, uint64_t groupSeq, const binlog::BinlogPosition& start,
                          const binlog::Location& trackerGlobal);
    // MySQL's XA COMMIT ... ONE PHASE: the branch being read commits where it ends.
    PreparedBranch takeReading();
    // The oldest waiting branch's group start, for the status.
    std::optional<binlog::BinlogPosition> oldestStart() const;

    // A branch's group ended at XA PREPARE. `globalBefore` is the global point before its group (the
    // tracker's, or the held one when already holding: see globalBefore()).
    void prepare(const std::string& branch, PreparedBranch prepared);
    // The global point before a group that ends now: the tracker's when nothing is held.
    binlog::Location globalBefore(const binlog::Location& trackerGlobal) const;

    // A group ended at `end` and moved `tables`: passed through when nothing is held, else kept aside.
    HeldPointsRelease groupEnded(const binlog::Location& end, TablePoints tables);

    // XA COMMIT or XA ROLLBACK of `branch`: the branch leaves the store. `release` gets the points
    // the tracker may take now that the branch no longer waits (when it was the oldest).
    std::optional<PreparedBranch> resolve(const std::string& branch, HeldPointsRelease& release);

private:
    std::map<std::string, PreparedBranch> branches_;
    std::map<uint64_t, std::string> byAge_;  // group seq -> branch
    binlog::Location heldGlobal_;
    TablePoints heldTables_;
    PreparedBranch reading_;
};

}  // namespace syncscope::task
