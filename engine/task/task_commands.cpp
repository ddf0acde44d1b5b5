#include "engine/task/task_commands.h"

#include <algorithm>
#include <vector>

#include "engine/common/error.h"
#include "engine/task/resume_point_writer.h"

namespace syncscope::task {

namespace {

// The failed event's rows, as the skip's audit entry keeps them.
nlohmann::json failedEventJson(const FailedEvent& failed) {
    nlohmann::json rows = nlohmann::json::array();
    size_t count = std::max(failed.before.size(), failed.after.size());
    for (size_t i = 0; i < count; ++i) {
        auto image = [&](const std::vector<RowImageView>& images) -> nlohmann::json {
            if (i >= images.size()) {
                return nullptr;
            }
            nlohmann::json values = nlohmann::json::array();
            for (const auto& value : images[i].values) {
                values.push_back(value ? nlohmann::json(*value) : nlohmann::json(nullptr));
            }
            return values;
        };
        rows.push_back({{"before", image(failed.before)}, {"after", image(failed.after)}});
    }
    return {{"position", failed.position.text()},
            {"gtid", failed.position.gtid},
            {"schema", failed.schema},
            {"table", failed.table},
            {"operation", failed.operation},
            {"columns", failed.columns},
            {"rows", rows},
            {"sql", failed.sql},
            {"error_code", failed.errorCode},
            {"error_message", failed.errorMessage}};
}

// What a Running task shows between a pause or stop and its end: a large transaction can take the grace.
std::string finishingTransactionNote(const char* what) {
    return std::string(what) + ": the transaction being read is applied to its end first (at most " +
           std::to_string(std::chrono::duration_cast<std::chrono::seconds>(kFinishTransactionGrace).count()) +
           " s), then what has committed is flushed";
}

CommandDecision refused(const Lifecycle& state, const std::string& command) {
    CommandDecision decision;
    decision.result = TaskCommands::refuse(state, command);
    return decision;
}

}  // namespace

CommandResult TaskCommands::refuse(const Lifecycle& state, const std::string& command) {
    return {false, "cannot " + command + " while the task is " + stageName(state.stage) +
                       (state.stageReason.empty() ? std::string() : " (" + state.stageReason + ")")};
}

CommandDecision TaskCommands::start(Lifecycle& state, const binlog::Location& persisted) {
    if (state.stage != Stage::New && state.stage != Stage::Stopped) {
        return refused(state, "start");
    }
    state.wanted = Wanted::Running;
    state.stage = Stage::Running;
    state.stageReason = "starting";
    CommandDecision decision;
    decision.result = {true, "starting"};
    decision.startThread = true;
    // "after" is where it starts from as far as known now (the checkpoint is read by the session; a first
    // start has none).
    decision.auditAfter =
        persisted.isEmpty() ? "from the checkpoint table, or the task's start point" : "from " + persisted.toString();
    return decision;
}

CommandDecision TaskCommands::pause(Lifecycle& state, const binlog::Location& persisted) {
    if (state.stage != Stage::Running && state.stage != Stage::Error) {
        return refused(state, "pause");
    }
    state.wanted = Wanted::Paused;
    if (state.stage == Stage::Running) {
        state.stageReason = finishingTransactionNote("pausing");
    }
    CommandDecision decision;
    decision.result = {true, "pausing: flushing what has committed"};
    decision.interrupt = true;
    decision.wake = true;
    decision.auditAfter = persisted.toString();
    return decision;
}

CommandDecision TaskCommands::resume(Lifecycle& state, const binlog::Location& persisted, bool threadStarted) {
    if ((state.stage != Stage::Paused && state.stage != Stage::Error) || !threadStarted) {
        return refused(state, "resume");
    }
    state.wanted = Wanted::Running;
    CommandDecision decision;
    decision.result = {true, "resuming from the persisted global point " + persisted.toString()};
    decision.wake = true;
    decision.resetRetries = true;
    decision.auditAfter = persisted.toString();
    return decision;
}

CommandDecision TaskCommands::stop(Lifecycle& state, const binlog::Location& persisted, bool threadStarted) {
    if (!threadStarted || state.stage == Stage::Stopped || state.stage == Stage::New) {
        return refused(state, "stop");
    }
    state.wanted = Wanted::Stopped;
    if (state.stage == Stage::Running) {
        state.stageReason = finishingTransactionNote("stopping");
    }
    CommandDecision decision;
    decision.result = {true, "stopping: flushing what has committed"};
    decision.interrupt = true;
    decision.wake = true;
    decision.auditAfter = persisted.toString();
    return decision;
}

CommandDecision TaskCommands::skip(Lifecycle& state, const SkipEvidence& evidence) {
    const std::optional<SessionOutcome>& failure = state.lastFailure;
    CommandDecision decision;
    if (state.stage != Stage::Error || !failure || !failure->failedEvent || failure->failedTransactionStart.isEmpty()) {
        if (state.stage == Stage::Error) {
            decision.result = {false, "the error has no failed event to skip"};
            return decision;
        }
        return refused(state, "skip the failed event");
    }
    if (failure->retryable) {
        decision.result = {false, "the error is retryable and the task resumes by itself (" + failure->message +
                                      "); skipping would throw away a transaction that can still apply"};
        return decision;
    }
    if (!failure->failedEvent->rowIdentified) {
        decision.result = {false,
                           "the failing row could not be told apart from the rest of its batch (the error came at "
                           "COMMIT or did not repeat row by row), so the transaction to skip is not known; fix the "
                           "cause and resume, or resume from an explicit position"};
        return decision;
    }
    binlog::BinlogPosition skipped = failure->failedTransactionStart;
    decision.auditDetails = failedEventJson(*failure->failedEvent);
    if (!evidence.replaySqlFile.empty()) {
        decision.auditDetails["replay_sql_file"] = evidence.replaySqlFile;  // the undo, in the skip's own entry
    }
    if (!evidence.preview.empty()) {
        decision.auditDetails["preview"] = evidence.preview;
    }
    state.pendingSkip = SkipRequest{skipped};
    state.lastFailure.reset();  // the status no longer shows it: the skip is in the audit log
    state.wanted = Wanted::Running;
    decision.result = {true, "skipping the transaction at " + skipped.toString()};
    decision.wake = true;
    decision.resetRetries = true;
    decision.auditAfter = "transaction at " + skipped.toString() + " skipped";
    return decision;
}

bool TaskCommands::takesResumeFrom(const Lifecycle& state) {
    return state.stage == Stage::Paused || state.stage == Stage::Stopped;
}

CommandDecision TaskCommands::resumeFrom(Lifecycle& state, const ResumeTarget& target, const SkipEvidence& evidence) {
    if (!takesResumeFrom(state)) {
        return refused(state, "resume from a position");
    }
    state.pendingResumeFrom = target;  // audited when written, with the point it replaces
    state.pendingResumeEvidence = evidence;
    state.wanted = Wanted::Running;
    CommandDecision decision;
    if (state.stage == Stage::Stopped) {
        state.stage = Stage::Running;
        state.stageReason = "starting from " + describeResumeTarget(target);
        decision.startThread = true;
    } else {
        decision.wake = true;
    }
    decision.result = {true, "resuming from " + describeResumeTarget(target)};
    return decision;
}

StopAtDecision TaskCommands::stopAt(const std::string& point, const binlog::Location& globalInMemory) {
    StopAtDecision decision;
    if (point.empty()) {
        decision.result = {true, "no stop point"};
        decision.auditAfter = "no stop point";
        return decision;
    }
    StopPoint parsed;
    try {
        parsed = StopPoint::parse(point);
    } catch (const Error& e) {
        decision.result = {false, e.what()};
        return decision;
    }
    std::string described = parsed.describe();
    // START SLAVE UNTIL a point already passed would stop at once; here the DBA is told and nothing changes.
    if (parsed.behind(globalInMemory)) {
        decision.result = {false, described + " is already behind the task: it has applied up to " +
                                      globalInMemory.toString() + "; choose a later point"};
        return decision;
    }
    decision.result = {true, "will pause at " + described};
    decision.point = std::move(parsed);
    decision.auditAfter = described;
    return decision;
}

}  // namespace syncscope::task
