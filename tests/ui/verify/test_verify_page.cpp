// The Verify tab against the private MariaDB pair, offscreen: a verify of a task's tables runs off
// the GUI thread, ends with one row per table (the equal one equal, the one with a deleted and a
// changed row "different" with 2 differences), shows the differing rows and the repair SQL of the
// selected table, and saves that SQL. Screenshot at 1280x800 for review.
#include <QtTest>

#include <QFile>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>

#include "tests/integration/outage/outage_helpers.h"
#include "tests/support/task_files.h"
#include "ui/engine/verify_runner.h"
#include "ui/main/task_view.h"
#include "ui/models/verify_results_model.h"
#include "ui/pages/verify_page.h"

using namespace syncscope;
using namespace syncscope::test;

namespace {
constexpr int kVerifyTimeoutMs = 60000;
constexpr QSize kScreenshotSize{1280, 800};
}  // namespace

class VerifyPageTest : public QObject {
    Q_OBJECT

private slots:
    void verifyRunsOffTheGuiThreadAndShowsTheDifferences() {
        auto up = connectTo(upstreamRoot());
        auto down = connectTo(downstreamRoot());
        for (auto* side : {up.get(), down.get()}) {
            side->execute("SET SESSION sql_log_bin = 0");
            side->execute("DROP DATABASE IF EXISTS verify_gui");
            side->execute("CREATE DATABASE verify_gui");
            side->execute("CREATE TABLE verify_gui.customers (id INT PRIMARY KEY, name VARCHAR(40), city VARCHAR(40))");
            side->execute(
                "INSERT INTO verify_gui.customers SELECT seq, CONCAT('customer ', seq), "
                "ELT(1 + seq % 3, 'Lyon', 'Porto', 'Turku') FROM verify_gui.seq_1_to_3000");
            side->execute("CREATE TABLE verify_gui.orders (id INT PRIMARY KEY, customer INT, total DECIMAL(10,2))");
            side->execute(
                "INSERT INTO verify_gui.orders SELECT seq, seq % 3000, seq / 7 FROM verify_gui.seq_1_to_5000");
        }
        down->execute("DELETE FROM verify_gui.customers WHERE id = 42");
        down->execute("UPDATE verify_gui.customers SET city = 'Oslo' WHERE id = 1000");

        QTemporaryDir dir;
        TaskFileOptions options;
        options.name = "verify-gui";
        options.binlogName = "mariadb-bin.000001";  // the task's meta: a verify never reads it
        options.instanceExtra = "    block-allow-list: \"only\"\n";
        options.topLevelExtra = "block-allow-list:\n  only: {do-dbs: [\"verify_gui\"]}\n";
        TaskFiles files = writeTaskFiles(dir.path().toStdString(), options);

        ui::TaskView view;
        view.resize(kScreenshotSize);
        view.show();
        ui::VerifyPage* page = view.verifyPage();
        view.tabs()->setCurrentWidget(page);
        page->setTask(QString::fromStdString(files.task), QString::fromStdString(files.source), nullptr);
        page->startVerify();
        QVERIFY(page->runner()->running());
        QTRY_VERIFY_WITH_TIMEOUT(!page->runner()->running() && page->model()->rowCount() == 2, kVerifyTimeoutMs);
        QTest::qWait(ui::VerifyRunner::kProgressMilliseconds * 2);  // the last progress tick
        ui::VerifyProgress progress = page->runner()->progress();
        QVERIFY2(progress.error.isEmpty(), qPrintable(progress.error));
        auto* model = page->model();
        int customersRow = -1;
        for (int row = 0; row < model->rowCount(); ++row) {
            if (model->result(row)->upstream.table == "customers") {
                customersRow = row;
            }
        }
        QVERIFY(customersRow >= 0);
        QCOMPARE(model->data(model->index(customersRow, ui::VerifyResultsModel::DifferencesColumn)).toULongLong(),
                 qulonglong{2});
        QCOMPARE(model->data(model->index(customersRow, ui::VerifyResultsModel::OutcomeColumn)).toString(),
                 QString("different"));
        QCOMPARE(model->data(model->index(1 - customersRow, ui::VerifyResultsModel::OutcomeColumn)).toString(),
                 QString("equal"));

        int viewRow = -1;
        for (int row = 0; row < page->view()->model()->rowCount(); ++row) {
            if (page->view()->model()->index(row, 0).data().toString() == "verify_gui.customers") {
                viewRow = row;
            }
        }
        page->view()->selectRow(viewRow);
        QTRY_VERIFY(page->details()->toPlainText().contains("Oslo"));
        QVERIFY(page->details()->toPlainText().contains("INSERT INTO `verify_gui`.`customers`"));

        QString sqlFile = dir.filePath("repair.sql");
        page->saveRepairSql(sqlFile);
        QFile sql(sqlFile);
        QVERIFY(sql.open(QIODevice::ReadOnly));
        QVERIFY(sql.readAll().contains("UPDATE `verify_gui`.`customers`"));

        QString shot = QString::fromStdString(outputDir("ui")) + "/verify_page.png";
        QVERIFY(view.grab().save(shot));
        qInfo("screenshot: %s", qPrintable(shot));
    }
};

QTEST_MAIN(VerifyPageTest)
#include "test_verify_page.moc"
