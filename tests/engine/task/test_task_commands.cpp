// The DBA's commands decided from the lifecycle alone (TaskCommands, no thread, no server): which stage
// takes which command, the reason of every refusal (and that a refusal changes nothing), what an accepted
// one changes and asks of the task's thread, and what its audit entry says. And the retry delays
// (RetryPolicy): about 1 s doubling to 60 s, within +-20%, counted again after a reset.
#include <QtTest>

#include "engine/task/retry_policy.h"
#include "engine/task/task_commands.h"

using namespace syncscope;
using namespace syncscope::task;

namespace {

binlog::Location at(const std::string& file, uint64_t pos) {
    return binlog::Location(binlog::BinlogPosition(file, pos));
}

Lifecycle inStage(Stage stage) {
    Lifecycle state;
    state.stage = stage;
    state.stageReason = "as set by the test";
    return state;
}

// An Error stage on a row that failed for good, with its transaction's start known.
Lifecycle failedOnARow(bool retryable = false, bool rowIdentified = true) {
    Lifecycle state = inStage(Stage::Error);
    SessionOutcome failure;
    failure.kind = SessionOutcome::Kind::Failed;
    failure.retryable = retryable;
    failure.message = "Duplicate entry '7' for key 'PRIMARY'";
    FailedEvent event;
    event.schema = "app";
    event.table = "t";
    event.operation = "insert";
    event.columns = {"id", "v"};
    event.after.push_back(RowImageView{{std::string("7"), std::nullopt}});
    event.rowIdentified = rowIdentified;
    failure.failedEvent = event;
    failure.failedTransactionStart = binlog::BinlogPosition("mariadb-bin.000002", 900);
    state.lastFailure = failure;
    state.wanted = Wanted::WaitForDba;
    return state;
}

bool sameState(const Lifecycle& a, const Lifecycle& b) {
    return a.stage == b.stage && a.stageReason == b.stageReason && a.wanted == b.wanted &&
           a.pendingSkip.has_value() == b.pendingSkip.has_value() &&
           a.pendingResumeFrom.has_value() == b.pendingResumeFrom.has_value() &&
           a.lastFailure.has_value() == b.lastFailure.has_value();
}

}  // namespace

class TaskCommandsTest : public QObject {
    Q_OBJECT

private slots:
    void aNewTaskOnlyStarts() {
        Lifecycle state = inStage(Stage::New);
        const Lifecycle before = state;
        for (CommandDecision refused : {TaskCommands::pause(state, {}), TaskCommands::resume(state, {}, false),
                                        TaskCommands::stop(state, {}, false), TaskCommands::skip(state, {}),
                                        TaskCommands::resumeFrom(state, ResumeTarget{"f", 4, ""}, {})}) {
            QVERIFY(!refused.result.accepted);
            QVERIFY2(refused.result.reason.find("while the task is New (as set by the test)") != std::string::npos,
                     refused.result.reason.c_str());
            QVERIFY(!refused.startThread && !refused.interrupt && !refused.wake);
        }
        QVERIFY(sameState(state, before));

        CommandDecision started = TaskCommands::start(state, {});
        QVERIFY(started.result.accepted);
        QVERIFY(started.startThread);
        QCOMPARE(state.stage, Stage::Running);
        QCOMPARE(state.stageReason, std::string("starting"));
        QVERIFY(state.wanted == Wanted::Running);
        QCOMPARE(started.auditAfter, std::string("from the checkpoint table, or the task's start point"));
        QVERIFY(!TaskCommands::start(state, {}).result.accepted);  // a second start while the first runs
    }

    void aStartFromAKnownPointNamesIt() {
        Lifecycle state = inStage(Stage::Stopped);
        CommandDecision started = TaskCommands::start(state, at("mariadb-bin.000003", 1234));
        QCOMPARE(started.auditAfter, std::string("from mariadb-bin.000003:1234"));
    }

    void pauseAndStopCutTheSessionAndSayTheyFinishTheTransaction() {
        for (bool pausing : {true, false}) {
            Lifecycle state = inStage(Stage::Running);
            state.wanted = Wanted::Running;
            CommandDecision decision = pausing ? TaskCommands::pause(state, at("mariadb-bin.000001", 400))
                                               : TaskCommands::stop(state, at("mariadb-bin.000001", 400), true);
            QVERIFY(decision.result.accepted);
            QVERIFY(decision.interrupt && decision.wake && !decision.startThread);
            QVERIFY(state.wanted == (pausing ? Wanted::Paused : Wanted::Stopped));
            QVERIFY2(state.stageReason.find("applied to its end first (at most 30 s)") != std::string::npos,
                     state.stageReason.c_str());
            QCOMPARE(decision.auditAfter, std::string("mariadb-bin.000001:400"));
        }
        // From Error, a pause keeps the error's reason.
        Lifecycle failed = failedOnARow();
        failed.stageReason = "the error";
        QVERIFY(TaskCommands::pause(failed, {}).result.accepted);
        QCOMPARE(failed.stageReason, std::string("the error"));
        QVERIFY(failed.wanted == Wanted::Paused);
    }

    void resumeNeedsAPausedOrFailedTaskWithItsThread() {
        Lifecycle paused = inStage(Stage::Paused);
        CommandDecision resumed = TaskCommands::resume(paused, at("mariadb-bin.000001", 4), true);
        QVERIFY(resumed.result.accepted);
        QVERIFY(resumed.wake && resumed.resetRetries && !resumed.startThread);
        QCOMPARE(resumed.result.reason, std::string("resuming from the persisted global point mariadb-bin.000001:4"));
        QVERIFY(paused.wanted == Wanted::Running);

        Lifecycle noThread = inStage(Stage::Paused);
        QVERIFY(!TaskCommands::resume(noThread, {}, false).result.accepted);
        Lifecycle running = inStage(Stage::Running);
        QVERIFY(!TaskCommands::resume(running, {}, true).result.accepted);
        Lifecycle stopped = inStage(Stage::Stopped);
        QVERIFY(!TaskCommands::stop(stopped, {}, true).result.accepted);
    }

    void aSkipTakesOnlyARowThatFailedForGood() {
        Lifecycle retryable = failedOnARow(true);
        CommandDecision refused = TaskCommands::skip(retryable, {});
        QVERIFY(!refused.result.accepted);
        QVERIFY2(refused.result.reason.find("retryable and the task resumes by itself (Duplicate entry") !=
                     std::string::npos,
                 refused.result.reason.c_str());
        QVERIFY(retryable.lastFailure.has_value() && !retryable.pendingSkip);

        Lifecycle unidentified = failedOnARow(false, false);
        refused = TaskCommands::skip(unidentified, {});
        QVERIFY(!refused.result.accepted);
        QVERIFY(refused.result.reason.find("could not be told apart") != std::string::npos);

        Lifecycle noEvent = inStage(Stage::Error);
        QCOMPARE(TaskCommands::skip(noEvent, {}).result.reason, std::string("the error has no failed event to skip"));
        Lifecycle running = inStage(Stage::Running);
        QVERIFY(TaskCommands::skip(running, {})
                    .result.reason.find("cannot skip the failed event while the task is "
                                        "Running") != std::string::npos);
    }

    void anAcceptedSkipHandsTheTransactionOnAndAuditsItsRows() {
        Lifecycle state = failedOnARow();
        SkipEvidence evidence;
        evidence.replaySqlFile = "/var/log/syncscope/skipped-1.sql";
        evidence.preview = "INSERT INTO app.t ...";
        CommandDecision skipped = TaskCommands::skip(state, evidence);
        QVERIFY(skipped.result.accepted);
        QCOMPARE(skipped.result.reason, std::string("skipping the transaction at mariadb-bin.000002:900"));
        QVERIFY(state.pendingSkip && state.pendingSkip->transactionStart.offset() == 900);
        QVERIFY(!state.lastFailure);
        QVERIFY(state.wanted == Wanted::Running);
        QVERIFY(skipped.wake && skipped.resetRetries);
        QCOMPARE(skipped.auditAfter, std::string("transaction at mariadb-bin.000002:900 skipped"));
        QCOMPARE(skipped.auditDetails["table"].get<std::string>(), std::string("t"));
        QCOMPARE(skipped.auditDetails["rows"][0]["after"][0].get<std::string>(), std::string("7"));
        QVERIFY(skipped.auditDetails["rows"][0]["after"][1].is_null());
        QVERIFY(skipped.auditDetails["rows"][0]["before"].is_null());
        QCOMPARE(skipped.auditDetails["replay_sql_file"].get<std::string>(), evidence.replaySqlFile);
        QCOMPARE(skipped.auditDetails["preview"].get<std::string>(), evidence.preview);
    }

    void resumeFromStartsAStoppedTaskAndWakesAPausedOne() {
        ResumeTarget target{"mariadb-bin.000004", 120, ""};
        Lifecycle stopped = inStage(Stage::Stopped);
        QVERIFY(TaskCommands::takesResumeFrom(stopped));
        CommandDecision started = TaskCommands::resumeFrom(stopped, target, {});
        QVERIFY(started.result.accepted && started.startThread && !started.wake);
        QCOMPARE(stopped.stage, Stage::Running);
        QVERIFY(stopped.stageReason.find("starting from") == 0);
        QVERIFY(stopped.pendingResumeFrom && stopped.pendingResumeFrom->pos == 120);
        QVERIFY(started.auditAfter.empty());  // audited when the next session writes the point

        Lifecycle paused = inStage(Stage::Paused);
        CommandDecision woken = TaskCommands::resumeFrom(paused, target, {});
        QVERIFY(woken.result.accepted && woken.wake && !woken.startThread);
        QCOMPARE(paused.stage, Stage::Paused);  // the thread says Running when it runs
        QVERIFY(paused.wanted == Wanted::Running);

        for (Stage stage : {Stage::New, Stage::Running, Stage::Error}) {
            Lifecycle state = inStage(stage);
            QVERIFY(!TaskCommands::takesResumeFrom(state));
            QVERIFY(!TaskCommands::resumeFrom(state, target, {}).result.accepted);
            QVERIFY(!state.pendingResumeFrom);
        }
    }

    void stopAtRefusesWhatItCannotReach() {
        binlog::Location global = at("mariadb-bin.000002", 5000);
        StopAtDecision cleared = TaskCommands::stopAt("", global);
        QVERIFY(cleared.result.accepted && !cleared.point);
        QCOMPARE(cleared.auditAfter, std::string("no stop point"));

        StopAtDecision junk = TaskCommands::stopAt("next tuesday", global);
        QVERIFY(!junk.result.accepted && !junk.point);
        QVERIFY(!junk.result.reason.empty());

        StopAtDecision behind = TaskCommands::stopAt("mariadb-bin.000002:100", global);
        QVERIFY(!behind.result.accepted);
        QVERIFY2(behind.result.reason.find("already behind the task: it has applied up to mariadb-bin.000002:5000") !=
                     std::string::npos,
                 behind.result.reason.c_str());

        StopAtDecision ahead = TaskCommands::stopAt("mariadb-bin.000003:4", global);
        QVERIFY(ahead.result.accepted && ahead.point);
        QVERIFY(ahead.result.reason.find("will pause at") == 0);
        QVERIFY(ahead.auditAfter.find("mariadb-bin.000003:4") != std::string::npos);
    }

    void retriesBackOffWithinTheJitterAndStartAgainAfterAReset() {
        RetryPolicy retry;
        const std::vector<int64_t> expectedMs = {1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000};
        for (size_t attempt = 0; attempt < expectedMs.size(); ++attempt) {
            int64_t delay = retry.nextDelay().count();
            auto low = static_cast<int64_t>(static_cast<double>(expectedMs[attempt]) * (1.0 - RetryPolicy::kJitter));
            auto high = static_cast<int64_t>(static_cast<double>(expectedMs[attempt]) * (1.0 + RetryPolicy::kJitter));
            QVERIFY2(
                delay >= low && delay <= high,
                qPrintable(QString("attempt %1: %2 ms, wanted %3..%4").arg(attempt).arg(delay).arg(low).arg(high)));
            QCOMPARE(retry.attempts(), static_cast<int>(attempt + 1));
        }
        retry.reset();
        QCOMPARE(retry.attempts(), 0);
        QVERIFY(retry.nextDelay().count() <= 1200);
    }
};

QTEST_GUILESS_MAIN(TaskCommandsTest)
#include "test_task_commands.moc"
