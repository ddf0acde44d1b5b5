#include "tests/integration/differential/fault_injector.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <optional>
#include <thread>

#include "engine/task/sync_pipeline.h"
#include "tests/integration/outage/outage_helpers.h"

namespace syncscope::differential {

namespace {

// A pause or stop during a large transaction waits up to the engine's grace for it to end (seed 110014: a
// CREATE ... SELECT of 40,000+ keyless rows applied one statement each under load); give it that and more.
constexpr int kStageWaitMs =
    static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(task::kFinishTransactionGrace).count()) +
    20000;
constexpr int kPausedForMs = 300;
constexpr double kDownstreamSecondsDown = 1.0;
constexpr double kUpstreamSecondsDown = 1.0;
constexpr int kHttpOk = 200;
constexpr int kResumeAttempts = 4;

}  // namespace

void FaultInjector::checkPersisted(const std::string& where, Divergences& found) {
    try {
        SqlSession up(test::upstreamRoot());
        SqlSession down(test::downstreamRoot());
        CheckpointExpectations expect;
        expect.shardLockMayHold = features_.count(Feature::ShardMerge) != 0;
        auto problems = checkCheckpoints(down, kTaskName, upstreamEnd(up), expect, where);
        found.insert(found.end(), problems.begin(), problems.end());
    } catch (const SqlFailure& e) {
        found.push_back({"check-failed", where + ": could not read the checkpoint: " + e.what()});
    }
}

bool FaultInjector::waitForStage(const std::string& stage, int timeoutMs) {
    return test::waitFor([&] { return !engine_.running() || engine_.process().stage() == stage; }, timeoutMs) &&
           engine_.running();
}

void FaultInjector::restart(const std::string& why, Divergences& found) {
    if (features_.count(Feature::MultipleRows) != 0) {
        // Each way of applying must recover from the other's interruptions.
        engine_.settings().multipleRows = random_.chance(50);
    }
    if (!engine_.start()) {
        found.push_back({"engine-start-failed", why + ": the engine did not start: " + engine_.stderrTail()});
    }
}

// Resumes a paused engine and sees it leave Paused; the request is sent again while it does not (an
// answer lost on a loaded machine), and an engine that stays paused is a divergence with its answer.
void FaultInjector::resume(const std::string& where, Divergences& found) {
    std::string answer;
    int status = 0;
    for (int attempt = 0; attempt < kResumeAttempts; ++attempt) {
        answer = engine_.process().post("/api/v1/resume", {}, &status);
        if (test::waitFor([&] { return !engine_.running() || engine_.process().stage() != "Paused"; },
                          kStageWaitMs / kResumeAttempts)) {
            return;
        }
    }
    found.push_back({"resume-failed", where + ": the engine stayed Paused; POST /api/v1/resume answered " +
                                          std::to_string(status) + ": " + answer});
}

// A replay: the target is a step boundary the engine has applied. A boundary it has not reached yet
// would skip the rows in between (what a DBA asks for with resume-from, but not what the replica did).
void FaultInjector::cutDump(const std::string& where, Divergences& found) {
    auto reconnects = [&]() -> std::optional<uint64_t> {
        nlohmann::json status = engine_.process().status();
        if (!status.is_object() || !status.contains("binlog_stream")) {
            return std::nullopt;
        }
        return status["binlog_stream"].value("reconnects", uint64_t{0});
    };
    // In place is expected only of a stream that was reading: one still connecting (a session that just
    // started) has no dump thread of its own yet, and the kill may hit only the native replica's.
    nlohmann::json was = engine_.process().status();
    bool reading = was.is_object() && was.contains("binlog_stream") &&
                   was["binlog_stream"].value("state", std::string()) == "reading";
    std::optional<uint64_t> before = reconnects();
    size_t killed = 0;
    try {
        SqlSession up(test::upstreamRoot());
        for (const auto& row : up.query("SELECT ID FROM information_schema.PROCESSLIST WHERE COMMAND LIKE "
                                        "'Binlog Dump%' AND USER = '" +
                                        test::upstreamReplication().user + "'")) {
            try {
                up.execute("KILL CONNECTION " + row[0].value_or("0"));
                ++killed;
            } catch (const SqlFailure&) {
                // gone already
            }
        }
    } catch (const SqlFailure& e) {
        found.push_back({"harness-failed", where + ": " + e.what()});
        return;
    }
    if (killed == 0 || !before || !reading || engine_.process().stage() != "Running") {
        return;  // no stream to cut (the engine is between sessions, or paused by an earlier fault)
    }
    // With a shard group, a lock that runs sends its source to re-sync in a new session with a new stream
    // (reconnects counted from 0), at any moment while the engine still has a shard DDL to read: the status
    // names no session to tell it from a stream resumed in place (soak seeds 561061, 562035). The cut is
    // still made; only its "in place" is not judged.
    if (features_.count(Feature::ShardMerge) != 0) {
        return;
    }
    if (!test::waitFor([&] { return reconnects().value_or(0) > *before; }, kStageWaitMs)) {
        found.push_back({"dump-cut-not-in-place", where + ": the stream was not resumed in place (reconnects " +
                                                      std::to_string(*before) + " before the cut, status " +
                                                      engine_.process().status().dump() + ")"});
    }
}

void FaultInjector::resumeFrom(const std::vector<BinlogPoint>& earlier, bool earliest, const std::string& where,
                               Divergences& found) {
    engine_.process().post("/api/v1/pause");
    if (!waitForStage("Paused", kStageWaitMs)) {
        found.push_back({"pause-failed", where + ": the engine did not reach Paused"});
        return;
    }
    nlohmann::json paused = engine_.process().status();
    BinlogPoint applied;
    if (paused.is_object() && paused.contains("points") && paused["points"]["applied"].is_object()) {
        const auto& point = paused["points"]["applied"];
        applied.file = point.value("binlog_name", std::string());
        applied.pos = point.value("binlog_pos", uint64_t{0});
        applied.gtid = point.value("binlog_gtid", std::string());
    }
    std::vector<BinlogPoint> replayable;
    for (const BinlogPoint& boundary : earlier) {
        if (!applied.file.empty() && comparePoints(boundary, applied) <= 0) {
            replayable.push_back(boundary);
        }
    }
    if (replayable.empty()) {
        resume(where, found);
        return;
    }
    const BinlogPoint& point = earliest ? replayable.front() : random_.pick(replayable);
    nlohmann::json body = engine_.settings().gtidMode
                              ? nlohmann::json{{"gtid", point.gtid}}
                              : nlohmann::json{{"binlog_name", point.file}, {"binlog_pos", point.pos}};
    int status = 0;
    std::string answer = engine_.process().post("/api/v1/resume-from", body.dump(), &status);
    if (status != kHttpOk) {
        found.push_back({"resume-from-refused", where + ": resume-from " + point.text() + " answered " +
                                                    std::to_string(status) + ": " + answer});
        resume(where, found);
    }
}

void FaultInjector::inject(FaultKind fault, int stepNumber, const std::vector<BinlogPoint>& earlier,
                           Divergences& found) {
    const std::string where = faultName(fault) + " before step " + std::to_string(stepNumber);
    if (!engine_.running()) {
        restart(where + " (engine was not running)", found);
    }
    switch (fault) {
        case FaultKind::None:
            return;
        case FaultKind::Kill:
            engine_.kill();
            checkPersisted("after SIGKILL before step " + std::to_string(stepNumber), found);
            restart(where, found);
            return;
        case FaultKind::PauseResume:
            engine_.process().post("/api/v1/pause");
            if (!waitForStage("Paused", kStageWaitMs)) {
                found.push_back({"pause-failed", where + ": the engine did not reach Paused (stage '" +
                                                     engine_.process().stage() + "')"});
                return;
            }
            checkPersisted("paused before step " + std::to_string(stepNumber), found);
            std::this_thread::sleep_for(std::chrono::milliseconds(kPausedForMs));
            resume(where, found);
            return;
        case FaultKind::StopStart:
            engine_.process().post("/api/v1/stop");
            if (!waitForStage("Stopped", kStageWaitMs)) {
                found.push_back({"stop-failed", where + ": the engine did not reach Stopped (stage '" +
                                                    engine_.process().stage() + "')"});
            }
            engine_.terminate();
            checkPersisted("stopped before step " + std::to_string(stepNumber), found);
            restart(where, found);
            return;
        case FaultKind::DownstreamRestart: {
            auto result = test::restartServer("down", kDownstreamSecondsDown);
            if (!result.ok) {
                found.push_back({"harness-failed", where + ": scripts/dbpair restart down failed: " + result.output});
            }
            return;
        }
        case FaultKind::UpstreamRestart: {
            // As upstream maintenance: a clean shutdown (a stop event ends the binlog file), down for a
            // moment, a new binlog file at the start. The engine and the native replica reconnect.
            auto result = test::restartServer("up", kUpstreamSecondsDown);
            if (!result.ok) {
                found.push_back({"harness-failed", where + ": scripts/dbpair restart up failed: " + result.output});
            }
            return;
        }
        case FaultKind::StreamCut:
            cutDump(where, found);
            return;
        case FaultKind::ResumeFrom:
        case FaultKind::ResumeFromEarlier:
            if (!earlier.empty()) {
                resumeFrom(earlier, fault == FaultKind::ResumeFromEarlier, where, found);
            }
            return;
        case FaultKind::SafeMode:
            engine_.terminate();
            engine_.settings().safeMode = true;
            checkPersisted("stopped for safe mode before step " + std::to_string(stepNumber), found);
            restart(where, found);
            return;
    }
}

}  // namespace syncscope::differential
