// The load page and its model: one row per table with its fraction done, numeric sorting, in-place
// updates while the same tables load, a reset when the tables change, the total bar; and a screenshot
// of a load in progress for review.
#include <QAbstractItemModelTester>
#include <QProgressBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QtTest>

#include "tests/support/test_env.h"
#include "ui/models/load_progress_model.h"
#include "ui/pages/load_page.h"

using syncscope::load::LoadProgressView;
using syncscope::load::TableLoadView;
using syncscope::ui::LoadProgressModel;

namespace {

TableLoadView table(const char* name, uint64_t done, uint64_t estimated, uint32_t chunksDone, uint32_t chunksTotal) {
    TableLoadView view;
    view.schema = "shop";
    view.table = name;
    view.targetSchema = "shop_copy";
    view.targetTable = name;
    view.rowsDone = done;
    view.rowsEstimated = estimated;
    view.bytesDone = done * 180;
    view.bytesEstimated = estimated * 200;
    view.chunksDone = chunksDone;
    view.chunksTotal = chunksTotal;
    return view;
}

std::shared_ptr<syncscope::task::StatusSnapshot> loading(std::vector<TableLoadView> tables) {
    auto snapshot = std::make_shared<syncscope::task::StatusSnapshot>();
    snapshot->stage = syncscope::task::Stage::Running;
    LoadProgressView load;
    load.unit = "Load";
    load.mode = "all";
    for (const auto& t : tables) {
        load.rowsDone += t.rowsDone;
        load.rowsEstimated += t.rowsEstimated;
        load.bytesDone += t.bytesDone;
        load.bytesEstimated += t.bytesEstimated;
        load.chunksDone += t.chunksDone;
        load.chunksTotal += t.chunksTotal;
    }
    load.tables = std::move(tables);
    load.rowsPerSecond = 48210;
    load.bytesPerSecond = 8.6 * 1024 * 1024;
    load.etaSeconds = 83;
    load.snapshotPoint = "mariadb-bin.000003:91244 gtid 0-1-5120";
    load.writersBlockedMilliseconds = 3.2;
    snapshot->load = load;
    return snapshot;
}

}  // namespace

class LoadPageTest : public QObject {
    Q_OBJECT

private slots:
    void fractionOfATable_data() {
        QTest::addColumn<qulonglong>("done");
        QTest::addColumn<qulonglong>("estimated");
        QTest::addColumn<int>("chunksDone");
        QTest::addColumn<double>("fraction");
        QTest::addRow("half of the estimate") << 500ULL << 1000ULL << 1 << 0.5;
        QTest::addRow("no estimate yet is zero, not a division by zero") << 0ULL << 0ULL << 0 << 0.0;
        QTest::addRow("more rows than InnoDB estimated stays at most 1") << 1500ULL << 1000ULL << 1 << 1.0;
        QTest::addRow("every chunk done is 1 whatever the estimate said") << 900ULL << 1000ULL << 2 << 1.0;
    }
    void fractionOfATable() {
        QFETCH(qulonglong, done);
        QFETCH(qulonglong, estimated);
        QFETCH(int, chunksDone);
        QFETCH(double, fraction);
        QCOMPARE(LoadProgressModel::fraction(table("t", done, estimated, static_cast<uint32_t>(chunksDone), 2)),
                 fraction);
    }

    void sameTablesUpdateInPlaceOtherTablesReset() {
        LoadProgressModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);
        QVERIFY(model.setSnapshot(loading({table("orders", 10, 100, 0, 4), table("users", 5, 50, 0, 1)})));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(resets.count(), 1);
        model.setSnapshot(loading({table("orders", 60, 100, 2, 4), table("users", 50, 50, 1, 1)}));
        QCOMPARE(resets.count(), 1);
        QCOMPARE(changes.count(), 1);
        QCOMPARE(
            model.data(model.index(1, LoadProgressModel::ProgressColumn), LoadProgressModel::FractionRole).toDouble(),
            1.0);
        model.setSnapshot(loading({table("orders", 60, 100, 2, 4)}));
        QCOMPARE(resets.count(), 2);
        QCOMPARE(model.rowCount(), 1);
        QVERIFY(!model.setSnapshot(std::make_shared<syncscope::task::StatusSnapshot>()));
        QCOMPARE(model.rowCount(), 0);
    }

    void sortsByNumberNotByText() {
        LoadProgressModel model;
        syncscope::ui::LoadPage page(&model);
        page.setSnapshot(
            loading({table("a", 9, 100, 0, 1), table("b", 10, 100, 0, 1), table("c", 100000, 200000, 1, 2)}));
        page.view()->sortByColumn(LoadProgressModel::RowsColumn, Qt::DescendingOrder);
        auto* proxy = page.view()->model();
        QCOMPARE(proxy->index(0, 0).data(LoadProgressModel::SortRole).toString(), QStringLiteral("shop.c"));
        QCOMPARE(proxy->index(2, 0).data(LoadProgressModel::SortRole).toString(), QStringLiteral("shop.a"));
    }

    void pageShowsTotalRateEtaAndSnapshotPoint() {
        LoadProgressModel model;
        syncscope::ui::LoadPage page(&model);
        auto tables = std::vector<TableLoadView>{
            table("orders", 1200000, 2000000, 12, 20), table("order_items", 2100000, 5100000, 21, 51),
            table("customers", 300000, 300000, 3, 3), table("audit_trail", 0, 800000, 0, 1)};
        tables[0].currentChunks = {"shop.orders.00012", "shop.orders.00013"};
        tables[1].currentChunks = {"shop.order_items.00021"};
        tables[3].keyless = true;
        tables[3].currentChunks = {"shop.audit_trail.00000"};
        page.setSnapshot(loading(tables));
        QCOMPARE(page.totalBar()->value(), 439);  // 3.6 M of 8.2 M rows, per mille
        for (const char* expected : {"1 of 4 tables", "ETA 1:23", "snapshot at mariadb-bin.000003:91244"}) {
            QVERIFY2(page.summaryText().contains(QString::fromUtf8(expected)), qPrintable(page.summaryText()));
        }
        page.resize(1280, 420);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        const QString path = QString::fromStdString(syncscope::test::outputDir("ui")) + "/load_page.png";
        QVERIFY(page.grab().save(path));
    }
};

QTEST_MAIN(LoadPageTest)
#include "test_load_page.moc"
