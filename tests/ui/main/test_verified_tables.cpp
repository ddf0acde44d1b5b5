// The last verify of each table on the task view: the table checkpoints page's Verified column says
// where each table was verified and what was found, its filter shows the unverified tables or those
// with differences, and the position ruler marks where each table was verified (red where it differs)
// with the table and outcome on hover. Screenshots at 1280x800 for review.
#include <QtTest>

#include <QComboBox>
#include <QTabWidget>
#include <QTableView>

#include "tests/support/test_env.h"
#include "tests/ui/support/simulated_task.h"
#include "ui/main/task_view.h"
#include "ui/models/table_checkpoint_filter_proxy.h"
#include "ui/models/table_checkpoint_model.h"
#include "ui/pages/table_checkpoints_page.h"
#include "ui/widgets/position_ruler.h"

using namespace syncscope;
using namespace syncscope::ui;
using syncscope::test::SimulatedTask;

namespace {

constexpr QSize kScreenshotSize{1280, 800};
constexpr int kTables = 6;

// Where each verified table was verified: spread over the upstream's two full files.
constexpr uint64_t kVerifiedPositions[] = {SimulatedTask::kFileSize / 4, SimulatedTask::kFileSize * 3 / 4,
                                           SimulatedTask::kFileSize / 2};
constexpr int kVerifiedFiles[] = {1, 1, 2};

// Verifications of three of the six tables: equal, two differences, failed.
TableVerifications verificationsFor(const task::StatusSnapshot& snapshot) {
    TableVerifications verifications;
    auto add = [&](size_t table, verify::TableOutcome outcome, uint64_t differences, const QString& problem) {
        const auto& point = snapshot.tables.at(table);
        TableVerification verification;
        verification.outcome = outcome;
        verification.verifiedAt.file = "mysql-bin.00000" + std::to_string(kVerifiedFiles[table]);
        verification.verifiedAt.pos = kVerifiedPositions[table];
        verification.differences = differences;
        verification.problem = problem;
        verifications.insert(QString::fromStdString(point.schema + "." + point.table), verification);
    };
    add(0, verify::TableOutcome::Equal, 0, {});
    add(1, verify::TableOutcome::Different, 2, {});
    add(2, verify::TableOutcome::Failed, 0,
        "downstream table billing.t2 (replicated from billing.t2) does not exist on downstream 127.0.0.1:3308");
    return verifications;
}

int rowOf(const QAbstractItemModel& model, const QString& schema, const QString& table) {
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.index(row, TableCheckpointModel::SchemaColumn).data().toString() == schema &&
            model.index(row, TableCheckpointModel::TableColumn).data().toString() == table) {
            return row;
        }
    }
    return -1;
}

}  // namespace

class VerifiedTablesTest : public QObject {
    Q_OBJECT

private slots:
    void verifiedColumnSaysWhereAndWhat() {
        SimulatedTask task(kTables);
        task.start();
        task.advance(120000, 500);
        task.flush();
        TableCheckpointModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSnapshot(task.status());
        const auto snapshot = task.status();
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setVerifications(verificationsFor(*snapshot));
        QCOMPARE(changed.count(), 1);
        const QString at = QString("mysql-bin.000001:%1").arg(kVerifiedPositions[0]);
        QCOMPARE(model.index(0, TableCheckpointModel::VerifiedColumn).data().toString(),
                 QString("verified at %1, equal").arg(at));
        QVERIFY(model.index(1, TableCheckpointModel::VerifiedColumn).data().toString().endsWith(", 2 difference(s)"));
        QVERIFY(model.index(2, TableCheckpointModel::VerifiedColumn).data().toString().startsWith("failed: "));
        QCOMPARE(model.index(3, TableCheckpointModel::VerifiedColumn).data().toString(), QString("not verified"));
        // Sorted by what needs the DBA most: unverified, equal, by differences, failed last.
        int64_t keys[4] = {};
        for (int row = 0; row < 4; ++row) {
            QVERIFY(model.numericSortKey(row, TableCheckpointModel::VerifiedColumn, &keys[row]));
        }
        QVERIFY(keys[3] < keys[0] && keys[0] < keys[1] && keys[1] < keys[2]);
        QCOMPARE(model.index(1, TableCheckpointModel::VerifiedColumn).data(Qt::ForegroundRole).isValid(), true);
        QCOMPARE(model.index(0, TableCheckpointModel::VerifiedColumn).data(Qt::ForegroundRole).isValid(), false);
        // A new snapshot keeps the verifications (they are the page's, not the snapshot's).
        task.advance(1000, 10);
        model.setSnapshot(task.status());
        QVERIFY(model.index(1, TableCheckpointModel::VerifiedColumn).data().toString().endsWith(", 2 difference(s)"));
    }

    void filterShowsUnverifiedOrDifferingTables_data() {
        QTest::addColumn<int>("filter");
        QTest::addColumn<int>("shown");
        QTest::addRow("verified or not: every table")
            << int(TableCheckpointFilterProxy::VerifiedFilter::Any) << kTables;
        QTest::addRow("unverified: the three never verified")
            << int(TableCheckpointFilterProxy::VerifiedFilter::Unverified) << 3;
        QTest::addRow("with differences: the differing and the failed one")
            << int(TableCheckpointFilterProxy::VerifiedFilter::WithDifferences) << 2;
    }

    void filterShowsUnverifiedOrDifferingTables() {
        QFETCH(int, filter);
        QFETCH(int, shown);
        SimulatedTask task(kTables);
        task.start();
        task.advance(120000, 500);
        task.flush();
        TaskView view;
        view.setSnapshot(task.status());
        view.showVerifications(verificationsFor(*task.status()));
        TableCheckpointsPage* page = view.tablesPage();
        QAbstractItemModelTester tester(page->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        page->verifiedFilter()->setCurrentIndex(filter);
        QCOMPARE(page->proxy()->rowCount(), shown);
        if (filter == int(TableCheckpointFilterProxy::VerifiedFilter::WithDifferences)) {
            QVERIFY(rowOf(*page->proxy(), "shop", "t1") >= 0);     // 2 differences
            QVERIFY(rowOf(*page->proxy(), "billing", "t2") >= 0);  // failed
            QCOMPARE(rowOf(*page->proxy(), "billing", "t0"), -1);  // equal
        }
    }

    void rulerMarksWhereEachTableWasVerified() {
        SimulatedTask task(kTables);
        task.start();
        task.advance(120000, 500);
        task.flush();
        TaskView view;
        view.resize(kScreenshotSize);
        view.show();
        view.setSnapshot(task.status());
        const auto snapshot = task.status();
        view.showVerifications(verificationsFor(*snapshot));
        PositionRuler* ruler = view.ruler();
        const auto marks = ruler->verifiedMarks();
        QCOMPARE(marks.size(), size_t(3));
        for (const auto& mark : marks) {
            const int table = mark.table.back().digitValue();  // billing.t0, shop.t1, billing.t2
            QCOMPARE(mark.axis, double(SimulatedTask::axisOf(kVerifiedFiles[table], kVerifiedPositions[table])));
        }
        // Hovering a mark on the axis names the table and what its verify found.
        const double differingX = ruler->xOf(double(SimulatedTask::axisOf(kVerifiedFiles[1], kVerifiedPositions[1])));
        bool named = false;
        for (int y = 0; y < ruler->height() && !named; ++y) {
            const QString text = ruler->describeAt(QPoint(int(std::lround(differingX)), y));
            named = text.contains("shop.t1") && text.contains("2 difference(s)");
        }
        QVERIFY2(named, qPrintable(QStringLiteral("no hover text names the verified table and its differences; at "
                                                  "the mark: %1")
                                       .arg(ruler->describeAt(QPoint(int(std::lround(differingX)), 95)))));
        view.tabs()->setCurrentWidget(view.tablesPage());
        QTest::qWait(50);
        const QString shot = QString::fromStdString(syncscope::test::outputDir("ui")) + "/verified_tables.png";
        QVERIFY(view.grab().save(shot));
        qInfo("screenshot: %s", qPrintable(shot));
        view.tablesPage()->verifiedFilter()->setCurrentIndex(
            int(TableCheckpointFilterProxy::VerifiedFilter::WithDifferences));
        const QString filtered =
            QString::fromStdString(syncscope::test::outputDir("ui")) + "/verified_tables_with_differences.png";
        QVERIFY(view.grab().save(filtered));
        qInfo("screenshot: %s", qPrintable(filtered));
    }
};

QTEST_MAIN(VerifiedTablesTest)
#include "test_verified_tables.moc"
