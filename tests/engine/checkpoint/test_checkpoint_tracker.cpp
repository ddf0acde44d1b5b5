// CheckpointTracker as pure logic (docs/design.md invariants 1, 3, 4 and 6): what a resume skips, what a
// flush writes, and that a pause or an error stands on the persisted points again.
#include <QtTest>

#include "engine/checkpoint/checkpoint_tracker.h"

using namespace syncscope;
using binlog::BinlogPosition;
using binlog::GtidPosition;
using binlog::Location;
using checkpoint::CheckpointTracker;
using checkpoint::TableName;

namespace {

Location at(uint64_t offset, const char* file = "mariadb-bin.000002") {
    return Location(BinlogPosition(file, offset));
}

Location withGtid(uint64_t offset, const char* gtid) {
    return Location(BinlogPosition("mariadb-bin.000002", offset), GtidPosition::parse(gtid));
}

const TableName kOrders{"shop", "orders"};
const TableName kUsers{"shop", "users"};

}  // namespace

Q_DECLARE_METATYPE(syncscope::binlog::Location)

class CheckpointTrackerTest : public QObject {
    Q_OBJECT

private slots:
    void resumeSkipsOnlyEventsAtOrBeforeTheTablePoint_data() {
        QTest::addColumn<Location>("event");
        QTest::addColumn<bool>("covered");
        QTest::addRow("before the table point") << at(400) << true;
        QTest::addRow("at the table point") << at(500) << true;
        QTest::addRow("after the table point") << at(600) << false;
        QTest::addRow("in a later file") << at(100, "mariadb-bin.000003") << false;
        QTest::addRow("in an earlier file") << at(900, "mariadb-bin.000001") << true;
    }
    void resumeSkipsOnlyEventsAtOrBeforeTheTablePoint() {
        QFETCH(Location, event);
        QFETCH(bool, covered);
        CheckpointTracker tracker;
        tracker.reset(at(300), {{kOrders, at(500)}}, at(300));
        QCOMPARE(tracker.coveredByTablePoint(kOrders, event), covered);
        QVERIFY(!tracker.coveredByTablePoint(kUsers, event));  // no point: applied
    }

    // Incomparable GTID histories are never skipped: the event is applied (safe mode makes a replay
    // harmless), never silently dropped.
    void incomparableLocationsAreNotCovered() {
        CheckpointTracker tracker;
        tracker.reset(withGtid(300, "0-1-5"), {{kOrders, withGtid(500, "0-1-7,1-1-3")}}, withGtid(300, "0-1-5"));
        QVERIFY(!tracker.coveredByTablePoint(kOrders, withGtid(450, "0-1-6,1-1-9")));
        QVERIFY(tracker.coveredByTablePoint(kOrders, withGtid(450, "0-1-6,1-1-2")));
    }

    void aFlushWritesOnlyTablePointsThatMovedAndTheGlobalPoint() {
        CheckpointTracker tracker;
        tracker.reset(at(100), {{kOrders, at(100)}, {kUsers, at(90)}}, at(100));
        tracker.advanceTable(kOrders, at(250));
        tracker.advanceGlobal(at(300));
        auto plan = tracker.planFlush(at(1000));
        QCOMPARE(plan.globalPoint, at(300));
        QCOMPARE(plan.exitSafePoint, at(1000));
        QCOMPARE(plan.tablePoints.size(), size_t(1));
        QCOMPARE(plan.tablePoints.front().table, kOrders);
        QCOMPARE(plan.tablePoints.front().location, at(250));
        QCOMPARE(tracker.globalPersisted(), at(100));  // planning writes nothing
        tracker.markPersisted(plan);
        QCOMPARE(tracker.globalPersisted(), at(300));
        QVERIFY(tracker.planFlush(at(1000)).tablePoints.empty());
        QVERIFY(tracker.coveredByTablePoint(kOrders, at(250)));
    }

    // A pause or an error drops what only memory held: the next session starts from what is persisted.
    void rollbackStandsOnThePersistedPointsAgain() {
        CheckpointTracker tracker;
        tracker.reset(at(100), {}, at(100));
        tracker.advanceTable(kOrders, at(250));
        tracker.advanceGlobal(at(300));
        tracker.rollbackToPersisted();
        QCOMPARE(tracker.globalInMemory(), at(100));
        QVERIFY(tracker.planFlush(at(100)).tablePoints.empty());
        QVERIFY(!tracker.coveredByTablePoint(kOrders, at(250)));
    }

    void viewShowsMemoryBesidePersisted() {
        CheckpointTracker tracker;
        tracker.reset(at(100), {{kUsers, at(90)}}, at(700));
        tracker.advanceTable(kOrders, at(250));
        auto view = tracker.view();
        QCOMPARE(view.globalPersisted, at(100));
        QCOMPARE(view.exitSafePersisted, at(700));
        QCOMPARE(view.tables.size(), size_t(2));
        for (const auto& table : view.tables) {
            if (table.table == kOrders) {
                QVERIFY(table.inMemory && !table.persisted);
            } else {
                QVERIFY(table.inMemory && table.persisted);
            }
        }
    }
};

QTEST_GUILESS_MAIN(CheckpointTrackerTest)
#include "test_checkpoint_tracker.moc"
