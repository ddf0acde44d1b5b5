// The shard lock model (shard-mode), fed with status snapshots: under QAbstractItemModelTester, one row per lock and
// shard table (those that read the DDL first, then those waited for, marked amber), the lock's state as the DBA
// reads it (waiting; ran downstream, re-syncing), where and since when each shard table read the DDL, the same
// locks announcing only the Since column, and no rows once no lock is held; with shard-mode optimistic, the columns
// some shard tables still lack as lines of the Shard locks page.
#include <QAbstractItemModelTester>
#include <QColor>
#include <QDateTime>
#include <QSignalSpy>
#include <QtTest>

#include "ui/models/shard_lock_model.h"
#include "ui/models/shard_lock_text.h"
#include "ui/pages/shard_locks_page.h"

using syncscope::task::ShardLockStatus;
using syncscope::task::StatusSnapshot;
using namespace syncscope::ui;

namespace {

constexpr int64_t kFirstArrival = 1796400000;  // Unix seconds
constexpr int64_t kWaitedSeconds = 190;

syncscope::task::Clock::time_point at(int64_t seconds) {
    return syncscope::task::Clock::time_point(std::chrono::seconds(seconds));
}

// sm.t merges sm_1.t and sm_2.t of sm-first with sm_3.t of sm-second; sm_1.t read an ADD COLUMN.
ShardLockStatus waitingLock() {
    ShardLockStatus lock;
    lock.target = {"sm", "t"};
    lock.ddls = {"ALTER TABLE `sm`.`t` ADD COLUMN `c` INT NOT NULL DEFAULT 7"};
    lock.arrived = {{"sm-first", {"sm_1", "t"}, "mariadb-bin.000003:48213", kFirstArrival}};
    lock.waitingFor = {{"sm-first", {"sm_2", "t"}, "", 0}, {"sm-second", {"sm_3", "t"}, "", 0}};
    lock.since = kFirstArrival;
    return lock;
}

std::shared_ptr<StatusSnapshot> snapshotWith(std::vector<ShardLockStatus> locks, int64_t now) {
    auto snapshot = std::make_shared<StatusSnapshot>();
    snapshot->sourceId = "sm-first";
    snapshot->takenAt = at(now);
    snapshot->shardLocks = std::move(locks);
    return snapshot;
}

QString cell(const ShardLockModel& model, int row, int column, int role = Qt::DisplayRole) {
    return model.index(row, column).data(role).toString();
}

}  // namespace

class ShardLockModelTest : public QObject {
    Q_OBJECT

private slots:
    void oneRowPerShardTableArrivalsFirstAndTheWaitedForMarked() {
        ShardLockModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(snapshotWith({waitingLock()}, kFirstArrival + kWaitedSeconds));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(cell(model, 0, ShardLockModel::MergedTableColumn), QStringLiteral("sm.t"));
        QCOMPARE(cell(model, 0, ShardLockModel::LockStateColumn), QStringLiteral("waiting"));
        QCOMPARE(cell(model, 0, ShardLockModel::SourceColumn), QStringLiteral("sm-first"));
        QCOMPARE(cell(model, 0, ShardLockModel::ShardTableColumn), QStringLiteral("sm_1.t"));
        QCOMPARE(cell(model, 0, ShardLockModel::ShardStateColumn), QStringLiteral("read the DDL"));
        QCOMPARE(cell(model, 0, ShardLockModel::PositionColumn), QStringLiteral("mariadb-bin.000003:48213"));
        // Local time, and how long it has waited by the snapshot's time.
        const QString localTime = QDateTime::fromSecsSinceEpoch(kFirstArrival).toString(QStringLiteral("HH:mm:ss"));
        QCOMPARE(cell(model, 0, ShardLockModel::SinceColumn), QStringLiteral("%1 (for 3 min)").arg(localTime));
        QVERIFY(cell(model, 0, ShardLockModel::DdlColumn).contains(QStringLiteral("ADD COLUMN `c`")));
        QVERIFY(!model.index(0, ShardLockModel::SourceColumn).data(ShardLockModel::WaitedForRole).toBool());
        QVERIFY(!model.index(0, ShardLockModel::SourceColumn).data(Qt::BackgroundRole).isValid());

        for (int row : {1, 2}) {
            QCOMPARE(cell(model, row, ShardLockModel::ShardStateColumn), QStringLiteral("waited for"));
            QCOMPARE(cell(model, row, ShardLockModel::PositionColumn), QStringLiteral("-"));
            QVERIFY(model.index(row, ShardLockModel::SourceColumn).data(ShardLockModel::WaitedForRole).toBool());
            QVERIFY(model.index(row, ShardLockModel::SourceColumn).data(Qt::BackgroundRole).value<QColor>().isValid());
        }
        QCOMPARE(cell(model, 2, ShardLockModel::SourceColumn), QStringLiteral("sm-second"));
        QCOMPARE(cell(model, 2, ShardLockModel::ShardTableColumn), QStringLiteral("sm_3.t"));
        QVERIFY(cell(model, 2, ShardLockModel::ShardStateColumn, Qt::ToolTipRole).contains(QStringLiteral("not read")));
        QCOMPARE(shardLockLine(model.locks().front(), model.now()),
                 QStringLiteral("Shard DDL lock on sm.t waits for 2 of 3 shard tables (sm-first:sm_2.t, "
                                "sm-second:sm_3.t) for 3 min"));
    }

    void aLockThatRanReadsAsReSyncingUntilItsSourcesPassIt() {
        ShardLockModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        ShardLockStatus lock = waitingLock();
        lock.ranDownstream = true;
        lock.arrived.push_back({"sm-first", {"sm_2", "t"}, "mariadb-bin.000003:50100", kFirstArrival + 60});
        lock.arrived.push_back({"sm-second", {"sm_3", "t"}, "mariadb-bin.000007:1200", kFirstArrival + 120});
        // Once it ran, waitingFor lists the arrivals whose sources still re-sync: no rows of their own.
        lock.waitingFor = {{"sm-first", {"sm_1", "t"}, "", 0}, {"sm-first", {"sm_2", "t"}, "", 0}};
        model.setSnapshot(snapshotWith({lock}, kFirstArrival + kWaitedSeconds));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(cell(model, 0, ShardLockModel::LockStateColumn), QStringLiteral("ran downstream, re-syncing"));
        QCOMPARE(cell(model, 0, ShardLockModel::ShardStateColumn), QStringLiteral("re-syncing"));
        QCOMPARE(cell(model, 1, ShardLockModel::ShardStateColumn), QStringLiteral("re-syncing"));
        QCOMPARE(cell(model, 2, ShardLockModel::ShardStateColumn), QStringLiteral("re-synced"));
        QVERIFY(model.index(0, 0).data(ShardLockModel::WaitedForRole).toBool());
        QVERIFY(!model.index(2, 0).data(ShardLockModel::WaitedForRole).toBool());
    }

    void theSameLocksAnnounceOnlyTheTimeTheyHaveWaited() {
        ShardLockModel model;
        model.setSnapshot(snapshotWith({waitingLock()}, kFirstArrival + 10));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setSnapshot(snapshotWith({waitingLock()}, kFirstArrival + kWaitedSeconds));
        QCOMPARE(reset.count(), 0);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.front().at(0).toModelIndex(), model.index(0, ShardLockModel::SinceColumn));
        QCOMPARE(changed.front().at(1).toModelIndex(), model.index(2, ShardLockModel::SinceColumn));
        QVERIFY(cell(model, 0, ShardLockModel::SinceColumn).endsWith(QStringLiteral("(for 3 min)")));

        // A shard table arrives: other rows, in one reset.
        ShardLockStatus lock = waitingLock();
        lock.arrived.push_back({"sm-first", {"sm_2", "t"}, "mariadb-bin.000003:50100", kFirstArrival + 60});
        lock.waitingFor.erase(lock.waitingFor.begin());
        model.setSnapshot(snapshotWith({lock}, kFirstArrival + kWaitedSeconds));
        QCOMPARE(reset.count(), 1);
        QCOMPARE(cell(model, 1, ShardLockModel::ShardStateColumn), QStringLiteral("read the DDL"));
        QCOMPARE(cell(model, 2, ShardLockModel::ShardStateColumn), QStringLiteral("waited for"));
    }

    void optimisticColumnsAwaitedAreLinesOfThePage() {
        ShardLockModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        ShardLocksPage page(&model);
        QVERIFY(page.summaryText().startsWith(QStringLiteral("No shard DDL lock: every shard table")));
        auto snapshot = snapshotWith({}, kFirstArrival);
        snapshot->shardColumns = {{{"sm", "t"},
                                   "c",
                                   {"sm-first", {"sm_1", "t"}, "", 0},
                                   {{"sm-first", {"sm_2", "t"}, "", 0}, {"sm-second", {"sm_3", "t"}, "", 0}}}};
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setSnapshot(snapshot);
        QCOMPARE(reset.count(), 1);  // no lock and no row, but the columns changed: the page reads them again
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(page.summaryText(),
                 QStringLiteral("Column c of sm.t, added by sm-first:sm_1.t, is awaited from 2 shard tables "
                                "(sm-first:sm_2.t, sm-second:sm_3.t): their rows take its default\n"
                                "No shard DDL lock waits"));
        model.setSnapshot(snapshotWith({}, kFirstArrival + 1));  // every shard table added it
        QCOMPARE(reset.count(), 2);
        QVERIFY(page.summaryText().startsWith(QStringLiteral("No shard DDL lock: every shard table")));
    }

    void noLockNoRows() {
        ShardLockModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(snapshotWith({}, kFirstArrival));
        QCOMPARE(model.rowCount(), 0);
        model.setSnapshot(snapshotWith({waitingLock()}, kFirstArrival));
        QCOMPARE(model.rowCount(), 3);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.setSnapshot(snapshotWith({}, kFirstArrival + kWaitedSeconds));  // the DDL ran and every source passed it
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(model.locks().empty());
        model.setSnapshot(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(ShardLockModelTest)
#include "test_shard_lock_model.moc"
