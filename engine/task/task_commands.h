// The DBA's commands on a task, decided from the task's lifecycle state alone: which stage takes which
// command, why one is refused (nothing changes then), and what an accepted one changes (what is wanted next,
// the stage's reason, the skip or resume-from handed to the next session) and asks of the task's thread
// (start it, cut the running session short, wake it). Called under the task's lock; holds no thread, lock or
// connection, so that every rule is testable alone. The task (task.h) carries the decisions out and audits
// them; its thread runs the sessions.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "engine/binlog/location.h"
#include "engine/task/session_outcome.h"
#include "engine/task/skip_evidence.h"
#include "engine/task/stop_point.h"
#include "engine/task/task_control.h"

namespace syncscope::task {

// What the DBA wants next; the task's thread does it.
enum class Wanted { Running, Paused, Stopped, WaitForDba };

// The task's lifecycle, guarded by the task's lock.
struct Lifecycle {
    Stage stage = Stage::New;
    std::string stageReason;
    std::string pausedAt;  // the stop point the last session ended at ("" when paused by the DBA)
    Wanted wanted = Wanted::Paused;
    std::optional<SessionOutcome> lastFailure;
    std::optional<SkipRequest> pendingSkip;
    std::optional<ResumeTarget> pendingResumeFrom;
    SkipEvidence pendingResumeEvidence;  // for pendingResumeFrom's audit entry
};

struct CommandDecision {
    CommandResult result;
    bool startThread = false;  // start the task's thread (joining the one that ended first)
    bool interrupt = false;    // cut the running session short
    bool wake = false;         // the task's thread waits for what is wanted: wake it
    bool resetRetries = false;
    // The audit entry of an accepted command: where it leaves the task, and the command's own details.
    std::string auditAfter;
    nlohmann::json auditDetails = nlohmann::json::object();
};

struct StopAtDecision {
    CommandResult result;
    std::optional<StopPoint> point;  // accepted: the point to pause at (nullopt: none)
    std::string auditAfter;
};

class TaskCommands {
public:
    // `persisted`: the persisted global point, as the answers and the audit name it. `threadStarted`: the
    // task's thread exists (started and not yet joined).
    static CommandDecision start(Lifecycle& state, const binlog::Location& persisted);
    static CommandDecision pause(Lifecycle& state, const binlog::Location& persisted);
    static CommandDecision resume(Lifecycle& state, const binlog::Location& persisted, bool threadStarted);
    static CommandDecision stop(Lifecycle& state, const binlog::Location& persisted, bool threadStarted);
    static CommandDecision skip(Lifecycle& state, const SkipEvidence& evidence);
    // Whether the stage takes a resume-from: asked before the target is checked upstream (without the lock)
    // and again by resumeFrom.
    static bool takesResumeFrom(const Lifecycle& state);
    // The target has been checked; its audit entry is written when the next session writes the point.
    static CommandDecision resumeFrom(Lifecycle& state, const ResumeTarget& target, const SkipEvidence& evidence);
    // `point` "" clears the stop point; `globalInMemory`: a point already behind it is refused.
    static StopAtDecision stopAt(const std::string& point, const binlog::Location& globalInMemory);

    static CommandResult refuse(const Lifecycle& state, const std::string& command);
};

}  // namespace syncscope::task
