// The command surface of one running task, shared by the GUI, the CLI and the HTTP API. Every command
// answers at once (it never blocks on the network); a command the state does not allow is refused with
// the reason, and changes nothing.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/task/skip_evidence.h"
#include "engine/task/status_snapshot.h"

namespace syncscope::task {

struct CommandResult {
    bool accepted = false;
    std::string reason;  // why it was refused, or what was done
};

// Where a resume-from starts: a binlog file and position, or a GTID set.
struct ResumeTarget {
    std::string file;
    uint64_t pos = 0;
    std::string gtid;
};

// Something the front ends must not miss (stage changes, errors, operator actions); delivered through a
// bounded, lossless queue and drained in batches.
struct Notice {
    Clock::time_point at{};
    Stage stage = Stage::New;
    std::string message;
    bool isError = false;
};

class TaskControl {
public:
    virtual ~TaskControl() = default;

    virtual std::shared_ptr<const StatusSnapshot> status() const = 0;
    virtual std::vector<Notice> drainNotices(size_t maxCount) = 0;

    virtual CommandResult start() = 0;
    virtual CommandResult pause() = 0;
    virtual CommandResult resume() = 0;
    virtual CommandResult stop() = 0;
    // Skips the failed event's transaction; `evidence` (the preview's replay SQL) goes into the skip's audit entry.
    virtual CommandResult skipFailedEvent(const SkipEvidence& evidence) = 0;
    CommandResult skipFailedEvent() { return skipFailedEvent(SkipEvidence{}); }
    virtual CommandResult resumeFrom(const ResumeTarget& target) = 0;
    // Pause by itself at a transaction end on reaching FILE:POS, a GTID or a time ("" clears it).
    virtual CommandResult stopAt(const std::string& point) {
        return {false, "stop at '" + point + "': this task cannot stop at a point"};
    }
    // The DBA's unlock of the waiting shard DDL lock on the merged table `target` ("schema.table";
    // shard_ddl_locks.h), or with `preview` what it would do.
    virtual CommandResult unlockShardDdl(const std::string& target, bool /*preview*/) {
        return {false, "unlock the shard DDL lock on " + target + ": this task merges no shard tables (no shard-mode)"};
    }
};

}  // namespace syncscope::task
