// The Verify tab against the private MariaDB pair, offscreen: a verify of a task's tables runs off
// the GUI thread, ends with one row per table (the equal one equal, the one with a deleted and a
// changed row "different" with 2 differences), shows the differing rows and the repair SQL of the
// selected table, and saves that SQL. Apply repair asks first (a refusal changes nothing), then repairs
// through the task's apply path, audits each table's repair and compares again. The results file of a
// `syncscope-cli verify` run is shown the same way (tables, rows, repair SQL, the checkpoints page and the
// ruler); a broken one is refused naming the file and what is wrong. Screenshots at 1280x800 for review.
#include <QtTest>

#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>

#include "tests/integration/outage/outage_helpers.h"
#include "tests/support/task_files.h"
#include "ui/engine/verify_runner.h"
#include "ui/main/task_view.h"
#include "ui/models/table_checkpoint_model.h"
#include "ui/models/verify_results_model.h"
#include "ui/pages/verify_page.h"
#include "ui/widgets/position_ruler.h"

using namespace syncscope;
using namespace syncscope::test;

namespace {
constexpr int kVerifyTimeoutMs = 60000;
constexpr QSize kScreenshotSize{1280, 800};
}  // namespace

class VerifyPageTest : public QObject {
    Q_OBJECT

    // Two tables on both sides; downstream, customer 42 is deleted and customer 1000's city changed.
    static void prepareTables() {
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
    }

    // Selects the customers table: its two differing rows and their repair SQL are shown.
    static bool showsCustomersRowsAndRepair(ui::VerifyPage* page) {
        for (int row = 0; row < page->view()->model()->rowCount(); ++row) {
            if (page->view()->model()->index(row, 0).data().toString() == "verify_gui.customers") {
                page->view()->selectRow(row);
            }
        }
        const QString details = page->details()->toPlainText();
        return details.contains("Oslo") && details.contains("customer 42") &&
               details.contains("INSERT INTO `verify_gui`.`customers`");
    }

    static TaskFiles taskFiles(const QTemporaryDir& dir) {
        TaskFileOptions options;
        options.name = "verify-gui";
        options.binlogName = "mariadb-bin.000001";  // the task's meta: a verify never reads it
        options.instanceExtra = "    block-allow-list: \"only\"\n";
        options.topLevelExtra = "block-allow-list:\n  only: {do-dbs: [\"verify_gui\"]}\n";
        return writeTaskFiles(dir.path().toStdString(), options);
    }

private slots:
    void verifyRunsOffTheGuiThreadAndShowsTheDifferences() {
        prepareTables();
        QTemporaryDir dir;
        TaskFiles files = taskFiles(dir);

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

        QVERIFY(showsCustomersRowsAndRepair(page));

        QString sqlFile = dir.filePath("repair.sql");
        page->saveRepairSql(sqlFile);
        QFile sql(sqlFile);
        QVERIFY(sql.open(QIODevice::ReadOnly));
        QVERIFY(sql.readAll().contains("UPDATE `verify_gui`.`customers`"));

        QString shot = QString::fromStdString(outputDir("ui")) + "/verify_page.png";
        QVERIFY(view.grab().save(shot));
        qInfo("screenshot: %s", qPrintable(shot));
    }

    void resultsOfTheCliVerifyAreShownAsAGuiVerify() {
        prepareTables();
        QTemporaryDir dir;
        TaskFiles files = taskFiles(dir);
        const QString logDir = dir.filePath("logs");
        QProcess cli;
        cli.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"),
                  {QStringLiteral("verify"), QString::fromStdString(files.task), QStringLiteral("--source"),
                   QString::fromStdString(files.source), QStringLiteral("--log-dir"), logDir,
                   QStringLiteral("--repair-sql"), dir.filePath("cli-repair.sql")});
        QVERIFY(cli.waitForFinished(kVerifyTimeoutMs));
        QCOMPARE(cli.exitCode(), 1);  // differences found

        ui::TaskView view;
        view.resize(kScreenshotSize);
        view.show();
        ui::VerifyPage* page = view.verifyPage();
        view.tabs()->setCurrentWidget(page);
        page->setTask(QString::fromStdString(files.task), QString::fromStdString(files.source), nullptr);
        QSignalSpy loaded(page, &ui::VerifyPage::savedResultsLoaded);
        view.setAuditPath(logDir + "/verify-gui-audit.jsonl");  // the file beside it is read at once
        QCOMPARE(loaded.count(), 1);
        QVERIFY2(page->summary()->text().contains("From `syncscope-cli verify`"), qPrintable(page->summary()->text()));
        auto* model = page->model();
        QCOMPARE(model->rowCount(), 2);
        for (int row = 0; row < model->rowCount(); ++row) {
            const bool customers = model->result(row)->upstream.table == "customers";
            QCOMPARE(model->data(model->index(row, ui::VerifyResultsModel::OutcomeColumn)).toString(),
                     customers ? QString("different") : QString("equal"));
            QCOMPARE(model->data(model->index(row, ui::VerifyResultsModel::DifferencesColumn)).toULongLong(),
                     qulonglong{customers ? 2U : 0U});
        }
        QVERIFY(showsCustomersRowsAndRepair(page));
        QVERIFY(page->repairButton()->isEnabled());  // a repair verifies those tables again first
        const QString sqlFile = dir.filePath("repair.sql");
        page->saveRepairSql(sqlFile);
        QFile sql(sqlFile);
        QVERIFY(sql.open(QIODevice::ReadOnly));
        QVERIFY(sql.readAll().contains("UPDATE `verify_gui`.`customers`"));
        // The checkpoints page and the ruler show it as they show a verify run here.
        QCOMPARE(view.tableModel()->verifications().size(), 2);
        QVERIFY(view.tableModel()->verifications().value("verify_gui.customers").needsAttention());
        QString shot = QString::fromStdString(outputDir("ui")) + "/verify_page_cli_results.png";
        QVERIFY(view.grab().save(shot));
        qInfo("screenshot: %s", qPrintable(shot));

        // A file that is not a verify's results changes nothing shown.
        const QString broken = dir.filePath("broken-verify.json");
        QFile brokenFile(broken);
        QVERIFY(brokenFile.open(QIODevice::WriteOnly));
        brokenFile.write(R"({"finished_at": 1764614400, "tables": [{"upstream": "verify_gui.customers"}]})");
        brokenFile.close();
        QVERIFY(!page->loadSavedResults(broken));
        QVERIFY2(page->summary()->text().contains(broken) &&
                     page->summary()->text().contains("verify_gui.customers: 'downstream' is missing"),
                 qPrintable(page->summary()->text()));
        QCOMPARE(model->rowCount(), 2);
        QCOMPARE(loaded.count(), 1);
    }

    void repairIsAppliedOnlyAfterConfirmationAndAudited() {
        prepareTables();
        QTemporaryDir dir;
        TaskFiles files = taskFiles(dir);
        const QString auditPath = dir.filePath("verify-gui-audit.jsonl");
        ui::TaskView view;
        view.resize(kScreenshotSize);
        view.show();
        ui::VerifyPage* page = view.verifyPage();
        view.tabs()->setCurrentWidget(page);
        page->setTask(QString::fromStdString(files.task), QString::fromStdString(files.source), nullptr);
        view.setAuditPath(auditPath);
        page->startVerify();
        QTRY_VERIFY_WITH_TIMEOUT(!page->runner()->running() && page->repairButton()->isEnabled(), kVerifyTimeoutMs);

        QString asked;
        page->setRepairConfirmation([&](const QString& question, bool, bool*) {
            asked = question;
            return false;  // the DBA says no
        });
        QVERIFY(!page->applyRepair());
        QVERIFY(asked.contains("Repair 2 differing rows in 1 tables"));
        QVERIFY(!page->runner()->running());
        auto down = connectTo(downstreamRoot());
        QCOMPARE(down->queryValue("SELECT COUNT(*) FROM verify_gui.customers WHERE id = 42").value_or(""),
                 std::string("0"));
        QVERIFY(!QFile::exists(auditPath));

        page->setRepairConfirmation([](const QString&, bool, bool*) { return true; });
        QVERIFY(page->applyRepair());
        QTRY_VERIFY_WITH_TIMEOUT(!page->runner()->running(), kVerifyTimeoutMs);
        QTest::qWait(ui::VerifyRunner::kProgressMilliseconds * 2);
        ui::VerifyProgress progress = page->runner()->progress();
        QVERIFY2(progress.error.isEmpty(), qPrintable(progress.error));
        QVERIFY(progress.repairing);
        QCOMPARE(progress.tables.size(), size_t(1));  // only the table that differed
        const auto& repaired = progress.tables.front();
        QVERIFY(repaired.repair && repaired.repair->applied);
        QVERIFY(repaired.repair->rechecked);
        QCOMPARE(repaired.repair->stillDifferent, size_t(0));
        QCOMPARE(down->queryValue("SELECT name FROM verify_gui.customers WHERE id = 42").value_or(""),
                 std::string("customer 42"));
        QCOMPARE(down->queryValue("SELECT city FROM verify_gui.customers WHERE id = 1000").value_or(""),
                 connectTo(upstreamRoot())
                     ->queryValue("SELECT city FROM verify_gui.customers WHERE id = 1000")
                     .value_or("?"));
        QFile audit(auditPath);
        QVERIFY(audit.open(QIODevice::ReadOnly));
        const QByteArray lines = audit.readAll();
        QVERIFY2(lines.contains("\"action\":\"verify-repair\"") && lines.contains("verify_gui.customers") &&
                     lines.contains("\"from\":\"gui\"") && lines.contains("customer 42"),
                 lines.constData());
        QVERIFY(page->summary()->text().contains("statements applied (audited), 0 rows still different"));
        page->view()->selectRow(0);
        QTRY_VERIFY(page->details()->toPlainText().contains("Repair applied"));
        QString shot = QString::fromStdString(outputDir("ui")) + "/verify_page_repaired.png";
        QVERIFY(view.grab().save(shot));
        qInfo("screenshot: %s", qPrintable(shot));

        page->startVerify();
        QTRY_VERIFY_WITH_TIMEOUT(!page->runner()->running() && page->model()->rowCount() == 2, kVerifyTimeoutMs);
        QTest::qWait(ui::VerifyRunner::kProgressMilliseconds * 2);
        for (const auto& table : page->runner()->progress().tables) {
            QCOMPARE(table.outcome, verify::TableOutcome::Equal);
        }
    }
};

QTEST_MAIN(VerifyPageTest)
#include "test_verify_page.moc"
