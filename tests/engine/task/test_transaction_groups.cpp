// Event groups and prepared XA branches as pure logic (docs/design.md invariant 9): where a group ends,
// what the GTID state is after it, and which points the checkpoint may take while XA branches wait.
#include <QtTest>

#include "engine/task/prepared_xa_store.h"
#include "engine/task/transaction_tracker.h"

using namespace syncscope;
using binlog::BinlogPosition;
using binlog::Location;
using binlog::MariaDbGtidEvent;
using task::GroupKind;
using task::HeldPointsRelease;
using task::PreparedBranch;
using task::PreparedXaStore;
using task::TransactionTracker;

Q_DECLARE_METATYPE(task::GroupKind)

namespace {

BinlogPosition pos(uint64_t offset) {
    return BinlogPosition("mariadb-bin.000001", offset);
}

Location loc(uint64_t offset) {
    return Location(pos(offset));
}

MariaDbGtidEvent gtid(uint64_t sequence, uint8_t flags, std::string xid = {}, uint8_t gtridLength = 0) {
    MariaDbGtidEvent event;
    event.domainId = 0;
    event.serverId = 1;
    event.sequence = sequence;
    event.flags = flags;
    event.xid = std::move(xid);
    event.xidGtridLength = gtridLength;
    event.xidFormatId = 1;
    return event;
}

std::string gtidText(const TransactionTracker& tracker) {
    return Location(pos(4), std::get<binlog::GtidPosition>(tracker.gtids())).gtidText();
}

checkpoint::TableName table(const char* name) {
    return {"db", name};
}

}  // namespace

class TransactionGroupsTest : public QObject {
    Q_OBJECT

private slots:
    void groupKindFollowsTheGtidFlags_data() {
        QTest::addColumn<int>("flags");
        QTest::addColumn<GroupKind>("kind");
        QTest::addRow("plain transaction") << int(MariaDbGtidEvent::kTransactional) << GroupKind::Plain;
        QTest::addRow("standalone DDL") << int(MariaDbGtidEvent::kStandalone | MariaDbGtidEvent::kDdl)
                                        << GroupKind::Standalone;
        QTest::addRow("CREATE ... SELECT is not standalone") << int(MariaDbGtidEvent::kDdl) << GroupKind::Plain;
        QTest::addRow("XA branch prepared") << int(MariaDbGtidEvent::kPreparedXa) << GroupKind::XaPrepare;
        QTest::addRow("XA outcome") << int(MariaDbGtidEvent::kCompletedXa) << GroupKind::XaOutcome;
    }
    void groupKindFollowsTheGtidFlags() {
        QFETCH(int, flags);
        QFETCH(GroupKind, kind);
        TransactionTracker tracker{binlog::GtidPosition()};
        tracker.onMariaDbGtid(gtid(5, static_cast<uint8_t>(flags), "x1", 2), pos(100), 0);
        QVERIFY(tracker.inGroup());
        QCOMPARE(tracker.group()->kind, kind);
    }

    void ddlInsideAGroupDoesNotEndItNorMoveTheGtidState() {
        TransactionTracker tracker{binlog::GtidPosition()};
        tracker.onMariaDbGtid(gtid(7, MariaDbGtidEvent::kDdl), pos(100), 0);
        QVERIFY(!tracker.ddlIsOwnGroup());  // CREATE TABLE ... SELECT: the rows and the XID follow
        tracker.markDdlInGroup();
        QVERIFY(tracker.inGroup());
        QCOMPARE(tracker.gtids().index(), size_t(1));
        QCOMPARE(gtidText(tracker), std::string());  // nothing complete yet
        auto ended = tracker.end();
        QVERIFY(ended.hasDdl);
        QCOMPARE(gtidText(tracker), std::string("0-1-7"));
    }

    void standaloneDdlIsItsOwnGroup() {
        TransactionTracker tracker{binlog::GtidPosition()};
        QVERIFY(tracker.ddlIsOwnGroup());  // no group open
        tracker.onMariaDbGtid(gtid(3, MariaDbGtidEvent::kStandalone), pos(100), 0);
        QVERIFY(tracker.ddlIsOwnGroup());
    }

    void groupsAreNumberedInOrder() {
        TransactionTracker tracker{binlog::GtidPosition()};
        tracker.onBegin(pos(100), 0);
        uint64_t first = tracker.group()->seq;
        tracker.onBegin(pos(150), 0);  // BEGIN inside an open group changes nothing
        QCOMPARE(tracker.group()->seq, first);
        tracker.end();
        tracker.onBegin(pos(200), 0);
        QCOMPARE(tracker.group()->seq, first + 1);
        QCOMPARE(tracker.group()->start, pos(200));
    }

    void xaBranchKeysMatchBetweenGtidAndStatement_data() {
        QTest::addColumn<QString>("statement");
        QTest::addColumn<bool>("commit");
        QTest::addRow("XA COMMIT as MariaDB logs it") << "XA COMMIT X'7831',X'',1" << true;
        QTest::addRow("XA ROLLBACK") << "XA ROLLBACK X'7831',X'',1" << false;
        QTest::addRow("upper-case hex and blanks") << "xa   commit X'7831' , X'' , 1" << true;
        QTest::addRow("one phase") << "XA COMMIT X'7831',X'',1 ONE PHASE" << true;
    }
    void xaBranchKeysMatchBetweenGtidAndStatement() {
        QFETCH(QString, statement);
        QFETCH(bool, commit);
        auto outcome = task::xaOutcomeOf(statement.toStdString());
        QVERIFY(outcome);
        QCOMPARE(outcome->commit, commit);
        QCOMPARE(outcome->branch, task::xaBranchKey(gtid(1, MariaDbGtidEvent::kPreparedXa, "x1", 2)));
    }

    void gtridAndBqualAreKeptApart() {
        auto ab = task::xaBranchKey(gtid(1, MariaDbGtidEvent::kPreparedXa, "abc", 2));
        auto a = task::xaBranchKey(gtid(1, MariaDbGtidEvent::kPreparedXa, "abc", 1));
        QVERIFY(ab != a);
        QCOMPARE(ab, std::string("x'6162',x'63',1"));
        QCOMPARE(task::xaStartBranch("XA START X'6162',X'63',1"), ab);
    }

    void otherXaStatementsAreNoOutcome() {
        QVERIFY(!task::xaOutcomeOf("XA END X'7831',X'',1"));
        QVERIFY(!task::xaOutcomeOf("XA PREPARE X'7831',X'',1"));
        QVERIFY(!task::xaOutcomeOf("COMMIT"));
    }

    void pointsPassThroughWhileNoBranchWaits() {
        PreparedXaStore store;
        HeldPointsRelease release = store.groupEnded(loc(300), {{table("a"), loc(250)}});
        QVERIFY(release.global);
        QCOMPARE(*release.global, loc(300));
        QCOMPARE(release.tables.at(table("a")), loc(250));
    }

    // The checkpoint must never pass a prepared branch whose rows wait in memory: a restart would
    // not read them again. Points reached meanwhile are handed over when nothing older waits.
    void aWaitingBranchHoldsEveryPointUntilItsOutcome() {
        PreparedXaStore store;
        PreparedBranch branch;
        branch.groupSeq = 2;
        branch.prepareStart = pos(100);
        branch.globalBefore = store.globalBefore(loc(100));
        store.prepare("x1", std::move(branch));
        QVERIFY(store.holding());
        QVERIFY(store.groupEnded(loc(200), {}).empty());                        // the prepare group's end
        QVERIFY(store.groupEnded(loc(300), {{table("a"), loc(280)}}).empty());  // a later transaction
        HeldPointsRelease release;
        auto resolved = store.resolve("x1", release);
        QVERIFY(resolved);
        QVERIFY(!store.holding());
        QCOMPARE(*release.global, loc(300));
        QCOMPARE(release.tables.at(table("a")), loc(280));
    }

    void resolvingTheOldestMovesTheHoldToTheNextBranch() {
        PreparedXaStore store;
        PreparedBranch first;
        first.groupSeq = 1;
        first.globalBefore = store.globalBefore(loc(100));
        store.prepare("x1", std::move(first));
        store.groupEnded(loc(150), {});
        store.groupEnded(loc(180), {{table("a"), loc(170)}});
        PreparedBranch second;
        second.groupSeq = 3;
        second.globalBefore = store.globalBefore(loc(100));
        QCOMPARE(second.globalBefore, loc(180));  // the held global: where the second branch's group begins
        store.prepare("x2", std::move(second));
        store.groupEnded(loc(220), {{table("b"), loc(210)}});
        HeldPointsRelease release;
        QVERIFY(store.resolve("x1", release));
        QVERIFY(store.holding());
        QCOMPARE(*release.global, loc(180));
        QCOMPARE(release.tables.size(), size_t(1));
        QCOMPARE(release.tables.at(table("a")), loc(170));  // b's point lies past the second branch
        QVERIFY(store.resolve("x2", release));
        QCOMPARE(*release.global, loc(220));
        QCOMPARE(release.tables.at(table("b")), loc(210));
    }

    void resolvingAYoungerBranchReleasesNothing() {
        PreparedXaStore store;
        PreparedBranch first;
        first.groupSeq = 1;
        first.globalBefore = loc(100);
        store.prepare("x1", std::move(first));
        store.groupEnded(loc(150), {});
        PreparedBranch second;
        second.groupSeq = 2;
        second.globalBefore = store.globalBefore(loc(100));
        store.prepare("x2", std::move(second));
        store.groupEnded(loc(200), {});
        HeldPointsRelease release;
        QVERIFY(store.resolve("x2", release));
        QVERIFY(release.empty());
        QVERIFY(store.holding());
    }

    // The branch being read keeps its rows and tables in the store: at XA PREPARE they wait (holding the
    // checkpoint at the global point before the branch's group); a branch without rows holds nothing.
    void theBranchBeingReadWaitsFromItsPrepare() {
        PreparedXaStore store;
        store.readingChanges().resize(3);
        store.readingTouches(table("a"));
        store.readingTouches(table("a"));
        store.readingTouches(table("b"));
        QCOMPARE(store.waitingChanges(), size_t(3));  // counted while read, for the status's held rows
        QVERIFY(!store.holding());
        QCOMPARE(store.prepareReading("x1", 4, pos(400), loc(350)), size_t(3));
        QVERIFY(store.holding());
        QCOMPARE(store.waitingChanges(), size_t(3));
        QVERIFY(store.readingChanges().empty());
        QVERIFY(store.groupEnded(loc(500), {}).empty());
        HeldPointsRelease release;
        auto resolved = store.resolve("x1", release);
        QVERIFY(resolved);
        QCOMPARE(resolved->changes.size(), size_t(3));
        QCOMPARE(resolved->tables.size(), size_t(2));  // each table once
        QCOMPARE(resolved->groupSeq, uint64_t(4));
        QCOMPARE(resolved->prepareStart, pos(400));
        QCOMPARE(resolved->globalBefore, loc(350));
        QCOMPARE(*release.global, loc(500));
    }

    void aBranchWithoutRowsHoldsNothing() {
        PreparedXaStore store;
        store.readingTouches(table("a"));
        QCOMPARE(store.prepareReading("x1", 1, pos(100), loc(90)), size_t(0));
        QVERIFY(!store.holding());
        QVERIFY(!store.groupEnded(loc(200), {}).empty());  // the points pass through
    }

    // A group that opens discards what a branch cut short left; a one-phase commit takes the branch whole.
    void theBranchBeingReadIsDiscardedOrTaken() {
        PreparedXaStore store;
        store.readingChanges().resize(2);
        store.readingTouches(table("a"));
        store.discardReading();
        QCOMPARE(store.waitingChanges(), size_t(0));
        store.readingChanges().resize(1);
        store.readingTouches(table("b"));
        PreparedBranch taken = store.takeReading();
        QCOMPARE(taken.changes.size(), size_t(1));
        QCOMPARE(taken.tables.size(), size_t(1));
        QVERIFY(store.readingChanges().empty());
        QCOMPARE(store.prepareReading("x1", 2, pos(100), loc(90)), size_t(0));  // nothing left of it
        QVERIFY(!store.holding());
    }

    void anUnknownBranchIsNotResolved() {
        PreparedXaStore store;
        HeldPointsRelease release;
        QVERIFY(!store.resolve("never-prepared", release));
        QVERIFY(release.empty());
    }
};

QTEST_GUILESS_MAIN(TransactionGroupsTest)
#include "test_transaction_groups.moc"
