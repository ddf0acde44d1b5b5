// The applied point and the lag, as pure logic: AppliedFrontier (which dispatched transactions the
// workers have committed) and LagClock (seconds behind the upstream in every task state).
#include <QtTest>

#include "engine/task/applied_frontier.h"
#include "engine/task/lag_clock.h"

using namespace syncscope;
using binlog::BinlogPosition;
using task::AppliedFrontier;
using task::LagClock;
using task::PointView;

namespace {

PointView at(uint64_t pos, const char* file = "mariadb-bin.000001") {
    return PointView{file, pos, {}, {}};
}

LagClock::WallClock::time_point wall(int64_t seconds) {
    return LagClock::WallClock::time_point(std::chrono::seconds(seconds));
}

BinlogPosition upstreamAt(uint64_t pos, const char* file = "mariadb-bin.000001") {
    return BinlogPosition(file, pos);
}

}  // namespace

class LagClockTest : public QObject {
    Q_OBJECT

private slots:
    void frontierAppliesTransactionsUpToTheCommittedSequence() {
        AppliedFrontier frontier;
        frontier.ended(3, at(100), 1000);
        frontier.ended(7, at(200), 1001);
        frontier.ended(9, at(300), 1002);
        QCOMPARE(frontier.oldestTimestamp(), 1000u);
        QVERIFY(!frontier.advance(2));  // sequence 3 (end of the first transaction) not yet committed
        QCOMPARE(frontier.size(), size_t(3));
        auto applied = frontier.advance(8);  // 1..8 committed: the first two transactions are done
        QVERIFY(applied);
        QCOMPARE(applied->pos, uint64_t(200));
        QCOMPARE(frontier.oldestTimestamp(), 1002u);
        QCOMPARE(frontier.advance(9)->pos, uint64_t(300));
        QVERIFY(frontier.empty());
        QCOMPARE(frontier.oldestTimestamp(), 0u);
    }

    void transactionsThatDispatchedNothingRideWithThePreviousOne() {
        AppliedFrontier frontier;
        frontier.ended(5, at(100), 1000);
        frontier.ended(5, at(150), 1003);  // filtered out: nothing dispatched, sequence unchanged
        frontier.ended(5, at(180), 1004);
        QCOMPARE(frontier.size(), size_t(1));
        QCOMPARE(frontier.oldestTimestamp(), 1000u);  // the oldest unapplied is still the first one
        QCOMPARE(frontier.advance(5)->pos, uint64_t(180));
        frontier.ended(5, at(200), 1005);  // everything dispatched is committed: applied at once
        QCOMPARE(frontier.advance(5)->pos, uint64_t(200));
    }

    void lagIsFromTheOldestUnappliedEvent() {
        LagClock clock;
        QCOMPARE(clock.lagSeconds(1000, at(500), upstreamAt(900), wall(1012)), 12.0);
        QCOMPARE(clock.lagSeconds(1000, at(500), upstreamAt(900), wall(1075)), 75.0);  // blocked: grows
        QCOMPARE(clock.lagSeconds(1000, at(500), std::nullopt, wall(1080)), 80.0);     // upstream unreachable
        QCOMPARE(clock.lagSeconds(2000, at(500), upstreamAt(900), wall(1990)), 0.0);   // clocks apart: not < 0
    }

    void caughtUpIsZero() {
        LagClock clock;
        QCOMPARE(clock.lagSeconds(0, at(900), upstreamAt(900), wall(1000)), 0.0);
        QCOMPARE(clock.lagSeconds(0, at(4, "mariadb-bin.000002"), upstreamAt(900), wall(1001)), 0.0);
    }

    void everythingReadAppliedLagsFromWhenTheUpstreamIsSeenAhead() {
        LagClock clock;
        QCOMPARE(clock.lagSeconds(0, at(500), upstreamAt(800), wall(2010)), 0.0);  // first seen ahead now
        QCOMPARE(clock.lagSeconds(0, at(500), upstreamAt(800), wall(2017)), 7.0);  // paused: grows
        QCOMPARE(clock.lagSeconds(0, at(500), upstreamAt(4, "mariadb-bin.000002"), wall(2020)), 10.0);
        QCOMPARE(clock.lagSeconds(0, at(500), std::nullopt, wall(2030)), 20.0);  // unreachable: still behind
        // The stream passes what was seen ahead while the upstream moved on again: count afresh.
        QCOMPARE(clock.lagSeconds(0, at(4, "mariadb-bin.000002"), upstreamAt(900, "mariadb-bin.000002"), wall(2031)),
                 0.0);
        QCOMPARE(clock.lagSeconds(0, at(4, "mariadb-bin.000002"), upstreamAt(900, "mariadb-bin.000002"), wall(2033)),
                 2.0);
        QCOMPARE(clock.lagSeconds(0, at(900, "mariadb-bin.000002"), upstreamAt(900, "mariadb-bin.000002"), wall(2034)),
                 0.0);
    }

    void neverStartedShowsNoLag() {
        LagClock clock;
        QCOMPARE(clock.lagSeconds(0, PointView{}, upstreamAt(800), wall(10)), 0.0);
        QCOMPARE(clock.lagSeconds(0, PointView{}, std::nullopt, wall(20)), 0.0);
    }
};

QTEST_GUILESS_MAIN(LagClockTest)
#include "test_lag_clock.moc"
