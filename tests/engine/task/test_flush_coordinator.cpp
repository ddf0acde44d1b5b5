// The checkpoint invariants of docs/design.md through the flush coordinator's seams, without a server: a
// recorder stands for the checkpoint table and a scripted commit frontier for the workers.
#include <QtTest>

#include <optional>
#include <vector>

#include "engine/task/flush_coordinator.h"

using namespace syncscope;
using binlog::BinlogPosition;
using binlog::Location;
using checkpoint::CheckpointTracker;
using checkpoint::FlushPlan;
using task::FlushCoordinator;

namespace {

constexpr uint64_t kStep = 1000;  // exit-safe step in bytes

Location at(uint64_t offset) {
    return Location(BinlogPosition("mariadb-bin.000001", offset));
}

struct Recorder : task::CheckpointWriter {
    std::vector<FlushPlan> plans;
    std::vector<Location> marks;
    void write(const FlushPlan& plan) override { plans.push_back(plan); }
    void writeExitSafePoint(const Location&, const Location& mark) override { marks.push_back(mark); }
};

struct ScriptedWorkers : task::CommitFrontier {
    uint64_t dispatched = 0;
    uint64_t committed = 0;
    mutable std::optional<apply::ApplyFailure> failure;
    bool failWhenDrained = false;
    // The race the contract covers: a worker fails and drops its batch between a reader's error check
    // and its read of the committed sequence (which then counts the dropped batch).
    bool failOnCommittedRead = false;
    std::optional<apply::ApplyFailure> drain() override {
        if (failWhenDrained) {
            failure = apply::ApplyFailure{};
        }
        if (!failure) {
            committed = dispatched;
        }
        return failure;
    }
    uint64_t committedSequence() const override {
        if (failOnCommittedRead) {
            failure = apply::ApplyFailure{};
            return dispatched;
        }
        return committed;
    }
    uint64_t dispatchedSequence() const override { return dispatched; }
    std::optional<apply::ApplyFailure> firstFailure() const override { return failure; }
};

struct SessionFailed {};

struct Fixture {
    CheckpointTracker tracker;
    Recorder recorder;
    ScriptedWorkers workers;
    std::unique_ptr<FlushCoordinator> flushes;

    explicit Fixture(Location global = at(100), Location exitSafe = at(100),
                     std::optional<Location> upstreamEnd = std::nullopt) {
        tracker.reset(global, {}, exitSafe);
        task::FlushCoordinatorSettings settings;
        settings.interval = std::chrono::seconds(0);  // every boundary may flush
        settings.exitSafeStepBytes = kStep;
        flushes = std::make_unique<FlushCoordinator>(
            settings, tracker, recorder, workers, [](const apply::ApplyFailure&) { throw SessionFailed{}; },
            [](const FlushPlan&, double, uint64_t) {});
        flushes->openSafeModeWindow(global, exitSafe, upstreamEnd);
    }

    // A group whose rows end at `rows` and whose end is `end`, dispatched as change number `sequence`.
    void group(uint64_t rows, uint64_t end, uint64_t sequence) {
        flushes->admit(at(rows));
        workers.dispatched = sequence;
        tracker.advanceTable({"db", "t"}, at(rows));
        tracker.advanceGlobal(at(end));
    }
};

}  // namespace

Q_DECLARE_METATYPE(Location)

class FlushCoordinatorTest : public QObject {
    Q_OBJECT

private slots:
    // Invariant 1: an interval flush is written only once every change before its points committed.
    void intervalFlushWaitsForTheCommitFrontier() {
        Fixture f;
        f.group(150, 200, 1);
        f.flushes->atBoundary(1);
        QVERIFY(f.recorder.plans.empty());  // change 1 not committed yet
        f.workers.committed = 1;
        f.flushes->atBoundary(1);
        QVERIFY(!f.recorder.plans.empty());
        QCOMPARE(f.recorder.plans.front().globalPoint, at(200));
        QCOMPARE(f.tracker.globalPersisted(), at(200));
    }

    // Invariant 1: after any worker error nothing is persisted, whatever the frontier says (a failed
    // worker counts its dropped batch as done).
    void noFlushAfterAWorkerError_data() {
        QTest::addColumn<bool>("frontierPassed");
        QTest::addRow("error before the frontier passed") << false;
        QTest::addRow("dropped batch counted as committed") << true;
    }
    void noFlushWhenTheErrorComesBetweenTheReads() {
        Fixture f;
        f.group(150, 200, 1);
        f.workers.failOnCommittedRead = true;
        QVERIFY_THROWS_EXCEPTION(SessionFailed, f.flushes->atBoundary(1));
        QVERIFY(f.recorder.plans.empty());
    }
    void noFlushAfterAWorkerError() {
        QFETCH(bool, frontierPassed);
        Fixture f;
        f.group(150, 200, 1);
        f.flushes->atBoundary(1);
        f.workers.failure = apply::ApplyFailure{};
        f.workers.committed = frontierPassed ? 1 : 0;
        QVERIFY_THROWS_EXCEPTION(SessionFailed, f.flushes->atBoundary(1));
        QVERIFY(f.recorder.plans.empty());
        QCOMPARE(f.tracker.globalPersisted(), at(100));
    }

    void barrierFlushFailsWithoutWritingWhenAWorkerFails() {
        Fixture f;
        f.group(150, 200, 1);
        f.workers.failWhenDrained = true;
        QVERIFY_THROWS_EXCEPTION(SessionFailed, f.flushes->flushNow(task::FlushReason::AtStop, 1));
        QVERIFY(f.recorder.plans.empty());
    }

    // Invariant 4: the exit-safe mark is persisted before anything is dispatched past it, in steps.
    void exitSafeMarkIsWrittenBeforeDispatchInSteps() {
        Fixture f;
        f.flushes->admit(at(150));
        QCOMPARE(f.recorder.marks.size(), size_t(1));
        QCOMPARE(f.recorder.marks.back(), at(150 + kStep));
        f.flushes->admit(at(150 + kStep));  // at the mark: no new write
        QCOMPARE(f.recorder.marks.size(), size_t(1));
        f.flushes->admit(at(151 + kStep));
        QCOMPARE(f.recorder.marks.size(), size_t(2));
    }

    // The session's summary counts every write by kind: what the stop line reports as the flushes' cost.
    void statsCountEveryWriteByKind() {
        Fixture f;
        f.group(150, 200, 1);
        f.workers.committed = 1;
        f.flushes->atBoundary(1);  // interval flush, and the exit-safe mark before the group
        f.group(250, 300, 2);
        f.flushes->atBoundary(2);  // planned, not written: change 2 not committed
        f.flushes->flushNow(task::FlushReason::AfterDdl, 2);
        f.flushes->flushNow(task::FlushReason::AtStop, 2);
        const task::FlushStats& stats = f.flushes->stats();
        QCOMPARE(stats.intervalFlushes, uint64_t(1));
        QCOMPARE(stats.barrierFlushes, uint64_t(2));
        QCOMPARE(stats.intervalFlushes + stats.barrierFlushes, uint64_t(f.recorder.plans.size()));
        QCOMPARE(stats.exitSafeMarks, uint64_t(f.recorder.marks.size()));
        QVERIFY(stats.exitSafeMarks >= 1);
        QVERIFY(stats.flushMilliseconds >= stats.longestFlushMilliseconds);
        QVERIFY(stats.longestFlushMilliseconds >= 0);
        QString text = QString::fromStdString(stats.text());
        QVERIFY2(text.startsWith("3 flushes (1 interval, 2 barrier), "), qPrintable(text));
        QVERIFY2(text.contains(QString("; %1 exit-safe marks, ").arg(stats.exitSafeMarks)), qPrintable(text));
    }

    // Invariant 10: a graceful stop closes the window (exit-safe = global) when everything committed;
    // after an unclean start it keeps the part of the window the stream has not passed.
    void stopFlushClosesTheWindow_data() {
        QTest::addColumn<Location>("exitSafeAtStart");
        QTest::addColumn<Location>("expected");
        QTest::addRow("clean start: closed at the global point") << at(100) << at(200);
        QTest::addRow("unclean start, window passed") << at(180) << at(200);
        QTest::addRow("unclean start, window not passed") << at(5000) << at(5000);
    }
    void stopFlushClosesTheWindow() {
        QFETCH(Location, exitSafeAtStart);
        QFETCH(Location, expected);
        Fixture f(at(100), exitSafeAtStart);
        f.group(150, 200, 1);
        f.flushes->flushNow(task::FlushReason::AtStop, 1);
        QCOMPARE(f.recorder.plans.back().globalPoint, at(200));
        QCOMPARE(f.recorder.plans.back().exitSafePoint, expected);
    }

    // Invariant 10: the window after an unclean stop never reaches past the upstream's end at start.
    void windowIsNarrowedToTheUpstreamEnd() {
        Fixture f(at(100), at(100 + 64 * kStep), at(300));
        QVERIFY(f.flushes->uncleanStart());
        QCOMPARE(f.flushes->safeModeUntil(), at(300));
        QVERIFY(f.flushes->inSafeModeWindow(at(250)));
        QVERIFY(!f.flushes->inSafeModeWindow(at(350)));
        // The answer an event gets when it is admitted for dispatch is the same.
        QVERIFY(f.flushes->admit(at(250)).inSafeModeWindow);
        QVERIFY(!f.flushes->admit(at(350)).inSafeModeWindow);
    }

    // Before a DDL the points are persisted with exit-safe exactly at it. Every DDL up to the exit-safe
    // point persisted before the session lies in the replay window (a resume-from an earlier point
    // replays many); none after it, and none in a session that started clean.
    void ddlWindowIsExact() {
        Fixture f(at(100), at(900));
        f.group(150, 200, 1);
        f.flushes->flushNow(task::FlushReason::BeforeDdl, 1, at(260));
        QCOMPARE(f.recorder.plans.back().globalPoint, at(200));
        QCOMPARE(f.recorder.plans.back().exitSafePoint, at(900));  // the unclean window reaches further
        QVERIFY(f.flushes->inReplayWindow(at(260)));
        QVERIFY(f.flushes->inReplayWindow(at(400)));  // a second DDL of the window
        QVERIFY(f.flushes->inReplayWindow(at(900)));
        QVERIFY(!f.flushes->inReplayWindow(at(901)));

        Fixture clean;
        clean.group(150, 200, 1);
        clean.flushes->flushNow(task::FlushReason::BeforeDdl, 1, at(260));
        QCOMPARE(clean.recorder.plans.back().exitSafePoint, at(260));
        QVERIFY(!clean.flushes->inReplayWindow(at(260)));
        // The DDL is then admitted at its own position: the mark already stands there, nothing is written.
        size_t marks = clean.recorder.marks.size();
        QVERIFY(!clean.flushes->admit(at(260)).inReplayWindow);
        QCOMPARE(clean.recorder.marks.size(), marks);
    }

    // Invariant 3: the tracker's table points never pass the global point they are flushed with.
    void tablePointsAreFlushedWithTheirGlobalPoint() {
        Fixture f;
        f.group(150, 200, 1);
        f.workers.committed = 1;
        f.flushes->atBoundary(1);
        const FlushPlan& plan = f.recorder.plans.back();
        for (const auto& table : plan.tablePoints) {
            QVERIFY(table.location.compare(plan.globalPoint) != binlog::PositionOrder::After);
        }
    }
};

QTEST_GUILESS_MAIN(FlushCoordinatorTest)
#include "test_flush_coordinator.moc"
