// The table checkpoint model and its proxy, fed with real status snapshots: every sequence passes
// QAbstractItemModelTester, unchanged rows emit nothing and changed rows one dataChanged, sorting is on
// numbers, the anomaly switch keeps flagged tables only, and an ahead row says what a resume would skip, unless a
// shard DDL lock holds its source's global point (shard-mode): then it is expected, and says why.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QtTest>

#include "ui/models/checkpoint_anomaly.h"
#include "ui/models/table_checkpoint_filter_proxy.h"
#include "ui/models/table_checkpoint_model.h"

Q_DECLARE_METATYPE(std::vector<uint64_t>)
Q_DECLARE_METATYPE(syncscope::ui::CheckpointAnomaly)

using syncscope::task::StatusSnapshot;
using syncscope::task::TablePointView;
using namespace syncscope::ui;

namespace {

constexpr uint64_t kFileSize = 1000000;

syncscope::task::PointView at(uint64_t axis) {
    syncscope::task::PointView point;
    point.file = "mysql-bin.00000" + std::to_string(axis / kFileSize + 1);
    point.pos = axis % kFileSize;
    point.gtid = "0-1-" + std::to_string(axis);
    point.axis = axis;
    return point;
}

// A snapshot with one table per entry of persisted points; the global point is persisted at 1,500,000.
std::shared_ptr<StatusSnapshot> snapshotWith(const std::vector<uint64_t>& persisted,
                                             const std::vector<uint64_t>& rows = {}) {
    auto snapshot = std::make_shared<StatusSnapshot>();
    snapshot->upstreamFiles = {{"mysql-bin.000001", kFileSize}, {"mysql-bin.000002", kFileSize}};
    snapshot->upstream = at(2 * kFileSize - 1);
    snapshot->globalPersisted = at(1500000);
    for (size_t i = 0; i < persisted.size(); ++i) {
        TablePointView table;
        table.schema = "shop";
        table.table = "t" + std::to_string(i);
        table.inMemory = at(persisted[i]);
        table.persisted = at(persisted[i]);
        table.bytesFromGlobal = int64_t(persisted[i]) - 1500000;
        table.aheadOfGlobal = persisted[i] > 1500000;
        table.eventsFromGlobal = table.aheadOfGlobal ? 5 : 0;
        table.rowsApplied = i < rows.size() ? rows[i] : 0;
        table.rowsUnmatched = table.rowsApplied / 2;  // drift: shown and sorted as a number too
        snapshot->tables.push_back(table);
    }
    return snapshot;
}

// sm.t merges sm_1.t of sm-first (read the ADD COLUMN) with sm_3.t of sm-second (waited for).
syncscope::task::ShardLockStatus shardLock(bool ranDownstream) {
    syncscope::task::ShardLockStatus lock;
    lock.target = {"sm", "t"};
    lock.ddls = {"ALTER TABLE `sm`.`t` ADD COLUMN `c` INT"};
    lock.arrived = {{"sm-first", {"sm_1", "t"}, "mysql-bin.000002:400000", 1796400000}};
    lock.waitingFor = {{"sm-second", {"sm_3", "t"}, "", 0}};
    if (ranDownstream) {
        lock.ranDownstream = true;
        lock.arrived.push_back({"sm-second", {"sm_3", "t"}, "mysql-bin.000009:700", 1796400100});
        lock.waitingFor = {{"sm-first", {"sm_1", "t"}, "", 0}};  // sm-first still re-syncs
    }
    return lock;
}

QStringList column(const QAbstractItemModel& model, int columnIndex) {
    QStringList values;
    for (int row = 0; row < model.rowCount(); ++row) {
        values << model.index(row, columnIndex).data().toString();
    }
    return values;
}

}  // namespace

class TableCheckpointModelTest : public QObject {
    Q_OBJECT

private slots:
    void everySnapshotSequencePassesTheModelTester() {
        TableCheckpointModel model;
        TableCheckpointFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester sourceTester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(TableCheckpointModel::BytesFromGlobalColumn);
        model.setSnapshot(snapshotWith({1000, 2000, 3000}));
        QCOMPARE(model.rowCount(), 3);
        model.setSnapshot(snapshotWith({1000, 2500, 1600000}));
        model.setSnapshot(snapshotWith({10}));
        QCOMPARE(model.rowCount(), 1);
        proxy.setOnlyAnomalies(true);
        model.setSnapshot(snapshotWith({10, 1700000, 20}));
        QCOMPARE(proxy.rowCount(), 1);
        model.setSnapshot(nullptr);
        QCOMPARE(model.rowCount(), 0);
        QCOMPARE(proxy.rowCount(), 0);
    }

    void unchangedRowsEmitNothingAndChangedRowsOneDataChanged() {
        TableCheckpointModel model;
        model.setSnapshot(snapshotWith({1000, 2000, 3000, 4000}, {1, 2, 3, 4}));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);

        auto result = model.setSnapshot(snapshotWith({1000, 2000, 3000, 4000}, {1, 2, 3, 4}));
        QCOMPARE(result.changedRows, 0);
        QCOMPARE(changed.count(), 0);

        result = model.setSnapshot(snapshotWith({1000, 2100, 3100, 4000}, {1, 2, 3, 4}));
        QCOMPARE(result.changedRows, 2);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toModelIndex().row(), 1);
        QCOMPARE(changed.at(0).at(1).toModelIndex().row(), 2);
        QCOMPARE(reset.count(), 0);

        result = model.setSnapshot(snapshotWith({1000, 2100, 3100}));
        QVERIFY(result.reset);
        QCOMPARE(reset.count(), 1);
    }

    void onlyChangedColumnsAreAnnouncedAndScatteredRowsAsOneRange() {
        std::vector<uint64_t> points(100, 1000);
        std::vector<uint64_t> rows(100, 1);
        TableCheckpointModel model;
        TableCheckpointFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.sort(TableCheckpointModel::RowsAppliedColumn, Qt::DescendingOrder);
        model.setSnapshot(snapshotWith(points, rows));
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

        // Rows applied of rows 10 and 11 (and rows unmatched, half of them in this fixture): one range over
        // those two columns only.
        rows[10] = rows[11] = 5;
        auto result = model.setSnapshot(snapshotWith(points, rows));
        QCOMPARE(result.changedRows, 2);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toModelIndex(), model.index(10, TableCheckpointModel::RowsAppliedColumn));
        QCOMPARE(changed.at(0).at(1).toModelIndex(), model.index(11, TableCheckpointModel::RowsUnmatchedColumn));
        QCOMPARE(proxy.index(0, TableCheckpointModel::RowsAppliedColumn).data().toString(), QStringLiteral("5"));

        // A row that becomes ahead of the global point changes colour: the whole row.
        changed.clear();
        points[50] = 1600000;
        result = model.setSnapshot(snapshotWith(points, rows));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toModelIndex(), model.index(50, 0));
        QCOMPARE(changed.at(0).at(1).toModelIndex(), model.index(50, TableCheckpointModel::ColumnCount - 1));
        QCOMPARE(model.aheadCount(), 1);

        // Scattered rows: one range per run up to the limit, then one range spanning them all.
        changed.clear();
        for (size_t i = 0; i < rows.size(); i += 2) {
            rows[i] += 10;
        }
        result = model.setSnapshot(snapshotWith(points, rows));
        QCOMPARE(result.changedRows, 50);
        QCOMPARE(result.dataChangedSignals, 1);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toModelIndex().row(), 0);
        QCOMPARE(changed.at(0).at(1).toModelIndex().row(), 98);
        QCOMPARE(proxy.index(0, TableCheckpointModel::RowsAppliedColumn).data().toString(), QStringLiteral("15"));
    }

    // A running online schema change (online-ddl) shows on its table's row; a new count of copied rows is
    // announced for that column alone, and the row of a table without one stays empty.
    void anOnlineSchemaChangeShowsOnItsTablesRow() {
        TableCheckpointModel model;
        model.setSnapshot(snapshotWith({1000, 2000}, {1, 2}));
        auto withChange = [](uint64_t rowsCopied) {
            auto snapshot = snapshotWith({1000, 2000}, {1, 2});
            syncscope::task::OnlineChangeView change;
            change.real = {"shop", "t1"};
            change.shadow = {"shop", "_t1_gho"};
            change.tool = "gh-ost";
            change.ddls = {"ALTER TABLE `shop`.`_t1_gho` MODIFY v BIGINT"};
            change.rowsCopied = rowsCopied;
            snapshot->onlineChanges = {change};
            return snapshot;
        };
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        auto result = model.setSnapshot(withChange(1200));
        QCOMPARE(result.dataChangedSignals, 1);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.front().at(0).toModelIndex().column(), int(TableCheckpointModel::OnlineChangeColumn));
        QCOMPARE(changed.front().at(1).toModelIndex().column(), int(TableCheckpointModel::OnlineChangeColumn));
        QCOMPARE(model.index(0, TableCheckpointModel::OnlineChangeColumn).data().toString(), QString());
        const QString shown = model.index(1, TableCheckpointModel::OnlineChangeColumn).data().toString();
        QVERIFY2(shown.startsWith(QStringLiteral("gh-ost _t1_gho: %1 rows copied, waiting for the swap")
                                      .arg(QLocale().toString(qulonglong(1200)))),
                 qPrintable(shown));
        QVERIFY(model.index(1, TableCheckpointModel::OnlineChangeColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("MODIFY v BIGINT")));
        QVERIFY(model.onlineChangeAt(1) != nullptr && model.onlineChangeAt(0) == nullptr);
        changed.clear();
        model.setSnapshot(withChange(1200));
        QCOMPARE(changed.size(), 0);  // nothing new
        model.setSnapshot(withChange(5000));
        QCOMPARE(changed.size(), 1);
        QVERIFY(model.index(1, TableCheckpointModel::OnlineChangeColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("%1 rows copied").arg(QLocale().toString(qulonglong(5000)))));
    }

    void sortsByNumbersNotStrings_data() {
        QTest::addColumn<int>("sortColumn");
        QTest::addColumn<std::vector<uint64_t>>("persisted");
        QTest::addColumn<std::vector<uint64_t>>("rows");
        QTest::addColumn<QStringList>("expectedTables");
        // As strings "9" > "10" > "100"; as numbers the order is 9, 10, 100, 1000.
        QTest::addRow("rows applied") << int(TableCheckpointModel::RowsAppliedColumn)
                                      << std::vector<uint64_t>{1, 2, 3, 4} << std::vector<uint64_t>{100, 9, 1000, 10}
                                      << QStringList{"t1", "t3", "t0", "t2"};
        QTest::addRow("rows unmatched") << int(TableCheckpointModel::RowsUnmatchedColumn)
                                        << std::vector<uint64_t>{1, 2, 3, 4} << std::vector<uint64_t>{100, 9, 1000, 10}
                                        << QStringList{"t1", "t3", "t0", "t2"};
        QTest::addRow("bytes from global, negative first")
            << int(TableCheckpointModel::BytesFromGlobalColumn)
            << std::vector<uint64_t>{1500009, 1499000, 1500100, 1500010} << std::vector<uint64_t>{}
            << QStringList{"t1", "t0", "t3", "t2"};
        QTest::addRow("persisted point across files")
            << int(TableCheckpointModel::PersistedColumn) << std::vector<uint64_t>{1000090, 999999, 90, 1000100}
            << std::vector<uint64_t>{} << QStringList{"t2", "t1", "t0", "t3"};
    }

    void sortsByNumbersNotStrings() {
        QFETCH(int, sortColumn);
        QFETCH(std::vector<uint64_t>, persisted);
        QFETCH(std::vector<uint64_t>, rows);
        QFETCH(QStringList, expectedTables);
        TableCheckpointModel model;
        TableCheckpointFilterProxy proxy;
        proxy.setSourceModel(&model);
        model.setSnapshot(snapshotWith(persisted, rows));
        proxy.sort(sortColumn, Qt::AscendingOrder);
        QCOMPARE(column(proxy, TableCheckpointModel::TableColumn), expectedTables);
    }

    void onlyAnomaliesKeepsFlaggedTables_data() {
        QTest::addColumn<bool>("onlyAnomalies");
        QTest::addColumn<QString>("nameFilter");
        QTest::addColumn<QStringList>("expectedTables");
        QTest::addRow("everything") << false << QString() << QStringList{"t0", "t1", "t2", "t3", "purged"};
        QTest::addRow("only anomalies") << true << QString() << QStringList{"t1", "t3", "purged"};
        QTest::addRow("anomalies named t3") << true << QStringLiteral("SHOP.T3") << QStringList{"t3"};
        QTest::addRow("name only") << false << QStringLiteral("t2") << QStringList{"t2"};
    }

    void onlyAnomaliesKeepsFlaggedTables() {
        QFETCH(bool, onlyAnomalies);
        QFETCH(QString, nameFilter);
        QFETCH(QStringList, expectedTables);
        // t1 ahead of the global point, t3 beyond the upstream (and ahead), "purged" in a purged file.
        auto snapshot = snapshotWith({1000, 1600000, 20, 2500000});
        TablePointView purged;
        purged.schema = "shop";
        purged.table = "purged";
        purged.persisted.file = "mysql-bin.000000";
        purged.persisted.pos = 4;
        snapshot->tables.push_back(purged);
        snapshot->tables[3].aheadOfGlobal = false;  // flagged only as beyond the upstream
        TableCheckpointModel model;
        TableCheckpointFilterProxy proxy;
        proxy.setSourceModel(&model);
        model.setSnapshot(snapshot);
        proxy.setOnlyAnomalies(onlyAnomalies);
        proxy.setNameFilter(nameFilter);
        QCOMPARE(column(proxy, TableCheckpointModel::TableColumn), expectedTables);
        QCOMPARE(model.anomalyCount(), 3);
        QCOMPARE(model.aheadCount(), 1);
        QCOMPARE(model.index(3, TableCheckpointModel::FlagColumn).data().toString(), QStringLiteral("beyond upstream"));
        QCOMPARE(model.index(4, TableCheckpointModel::FlagColumn).data().toString(), QStringLiteral("file purged"));
    }

    void aheadRowIsColouredIconedAndSaysWhatAResumeSkips() {
        TableCheckpointModel model;
        model.setSnapshot(snapshotWith({1000, 1500334}));
        const QModelIndex normal = model.index(0, TableCheckpointModel::FlagColumn);
        const QModelIndex ahead = model.index(1, TableCheckpointModel::FlagColumn);
        QVERIFY(!normal.data(TableCheckpointModel::AheadOfGlobalRole).toBool());
        QVERIFY(ahead.data(TableCheckpointModel::AheadOfGlobalRole).toBool());
        QCOMPARE(ahead.data().toString(), QStringLiteral("ahead of global"));
        QVERIFY(ahead.data(Qt::BackgroundRole).value<QColor>().isValid());
        QVERIFY(!normal.data(Qt::BackgroundRole).isValid());
        QVERIFY(!ahead.data(Qt::DecorationRole).value<QIcon>().isNull());
        const QString tooltip = model.index(1, TableCheckpointModel::TableColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(tooltip.contains(QStringLiteral("`shop`.`t1` is ahead of the global checkpoint")),
                 qPrintable(tooltip));
        QVERIFY2(tooltip.contains(QStringLiteral("mysql-bin.000002:500334")), qPrintable(tooltip));
        QVERIFY2(tooltip.contains(QStringLiteral("skips 5 event(s) of this table between mysql-bin.000002:500000 and "
                                                 "mysql-bin.000002:500334")),
                 qPrintable(tooltip));
        QVERIFY2(tooltip.contains(QStringLiteral("334 bytes")), qPrintable(tooltip));
        QVERIFY(tooltip.contains(QStringLiteral("lost without an error")));
        QCOMPARE(model.index(1, TableCheckpointModel::BytesFromGlobalColumn).data(TableCheckpointModel::SortRole),
                 QVariant(qlonglong(334)));
        QCOMPARE(model.index(1, TableCheckpointModel::BytesFromGlobalColumn).data(TableCheckpointModel::ExportRole),
                 QVariant(QStringLiteral("334")));
    }

    void aheadReadsAsExpectedOnlyWhileAShardLockHoldsItsSource_data() {
        QTest::addColumn<QString>("sourceId");
        QTest::addColumn<int>("locks");  // 0: none, 1: waiting, 2: ran downstream
        QTest::addColumn<QString>("lockedSource");
        QTest::addColumn<CheckpointAnomaly>("expected");
        QTest::addColumn<QString>("tableSource");  // the source the engine names on the row ("" : none)
        const auto red = CheckpointAnomaly::AheadOfGlobal;
        const auto held = CheckpointAnomaly::AheadForShardLock;
        QTest::addRow("no lock: red") << "sm-first" << 0 << "sm-first" << red << "";
        QTest::addRow("waiting lock, the source read its DDL: expected") << "sm-first" << 1 << "sm-first" << held << "";
        QTest::addRow("waiting lock, only another source read its DDL: red") << "sm-second" << 1 << "" << red << "";
        QTest::addRow("ran downstream, the source re-syncs: expected") << "sm-first" << 2 << "sm-first" << held << "";
        QTest::addRow("ran downstream, the source passed it: red") << "sm-second" << 2 << "" << red << "";
        // The whole of a task with several sources lists its tables without their source.
        QTest::addRow("several sources, the lock names the table with its source: expected")
            << "sm-first,sm-second" << 1 << "sm-first" << held << "";
        QTest::addRow("several sources, the table's source unknown: red")
            << "sm-first,sm-second" << 1 << "" << red << "";
        // The engine names each row's source: no guess from the locks' tables.
        QTest::addRow("several sources, the row names the source that read the DDL: expected")
            << "sm-first,sm-second" << 1 << "" << held << "sm-first";
        QTest::addRow("several sources, the row names a source the lock does not hold: red")
            << "sm-first,sm-second" << 1 << "" << red << "sm-second";
    }

    void aheadReadsAsExpectedOnlyWhileAShardLockHoldsItsSource() {
        QFETCH(QString, sourceId);
        QFETCH(int, locks);
        QFETCH(QString, lockedSource);
        QFETCH(CheckpointAnomaly, expected);
        QFETCH(QString, tableSource);
        auto withLock = [&] {
            auto snapshot = snapshotWith({1000, 1500334});
            snapshot->sourceId = sourceId.toStdString();
            for (auto& table : snapshot->tables) {
                table.sourceId = tableSource.toStdString();
            }
            if (locks > 0) {
                auto lock = shardLock(locks == 2);
                if (sourceId.contains(QLatin1Char(',')) && !lockedSource.isEmpty()) {
                    lock.waitingFor.push_back({lockedSource.toStdString(), {"shop", "t1"}, "", 0});
                }
                snapshot->shardLocks = {lock};
            }
            return snapshot;
        };
        TableCheckpointModel model;
        TableCheckpointFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(snapshotWith({1000, 1500334}));
        QCOMPARE(model.aheadCount(), 1);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setSnapshot(withLock());
        QCOMPARE(model.anomalyAt(1), expected);
        const QModelIndex flag = model.index(1, TableCheckpointModel::FlagColumn);
        const QString tooltip = flag.data(Qt::ToolTipRole).toString();
        if (expected == CheckpointAnomaly::AheadOfGlobal) {
            // Exactly as without a lock: red, counted, kept by the anomaly switch.
            QCOMPARE(flag.data().toString(), QStringLiteral("ahead of global"));
            QVERIFY(flag.data(Qt::BackgroundRole).value<QColor>().isValid());
            QVERIFY(!flag.data(Qt::DecorationRole).value<QIcon>().isNull());
            QVERIFY2(tooltip.contains(QStringLiteral("lost without an error")), qPrintable(tooltip));
            QCOMPARE(model.aheadCount(), 1);
            QCOMPARE(model.anomalyCount(), 1);
            QCOMPARE(changed.count(), 0);
            proxy.setOnlyAnomalies(true);
            QCOMPARE(proxy.rowCount(), 1);
            return;
        }
        QCOMPARE(flag.data().toString(), QStringLiteral("ahead: shard lock"));
        QVERIFY(!flag.data(Qt::BackgroundRole).isValid());
        QVERIFY(!flag.data(Qt::DecorationRole).isValid());
        QCOMPARE(model.aheadCount(), 0);
        QCOMPARE(model.anomalyCount(), 0);
        QCOMPARE(model.aheadForShardLockCount(), 1);
        // The row's colour changed: the whole row, once.
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.front().at(0).toModelIndex(), model.index(1, 0));
        QCOMPARE(changed.front().at(1).toModelIndex(), model.index(1, TableCheckpointModel::ColumnCount - 1));
        const QString why = locks == 1 ? QStringLiteral(
                                             "ahead of the global point because the shard DDL lock on sm.t "
                                             "waits (sm_1.t read ALTER TABLE `sm`.`t` ADD COLUMN `c` INT "
                                             "at mysql-bin.000002:400000; waiting for sm_3.t on source "
                                             "sm-second")
                                       : QStringLiteral("re-reads from the point held for the shard DDL lock on sm.t");
        QVERIFY2(tooltip.contains(why.toHtmlEscaped()), qPrintable(tooltip));
        QVERIFY2(!tooltip.contains(QStringLiteral("lost without an error")), qPrintable(tooltip));
        proxy.setOnlyAnomalies(true);
        QCOMPARE(proxy.rowCount(), 0);
        // The lock resolves: red again.
        proxy.setOnlyAnomalies(false);
        auto resolved = withLock();
        resolved->shardLocks.clear();
        model.setSnapshot(resolved);
        QCOMPARE(model.anomalyAt(1), CheckpointAnomaly::AheadOfGlobal);
        QCOMPARE(model.aheadCount(), 1);
    }
};

QTEST_MAIN(TableCheckpointModelTest)
#include "test_table_checkpoint_model.moc"
