// The precheck dialog against the private MariaDB pair: the report comes in off the GUI thread with
// the same findings as the engine's precheck, "Copy fix" puts the selected fix on the clipboard,
// "Apply fix..." does nothing unless confirmed, runs the confirmed fix on the server it names (audited)
// and checks again; the finding model passes QAbstractItemModelTester. Saves a screenshot for review.
#include <QtTest>

#include <QAbstractItemModelTester>
#include <QClipboard>
#include <QFile>
#include <QGuiApplication>
#include <QPointer>
#include <QPushButton>
#include <QStatusBar>

#include "engine/common/state_directory.h"
#include "engine/precheck/sql_session.h"
#include "engine/task/task_setup_builder.h"
#include "tests/support/task_files.h"
#include "tests/support/test_env.h"
#include "ui/dialogs/precheck_dialog.h"
#include "ui/main/main_window.h"
#include "ui/models/precheck_finding_model.h"

using namespace syncscope;
using namespace syncscope::ui;

namespace {

constexpr int kPrecheckTimeoutMs = 60000;
const char* const kSchema = "gui_precheck";
const char* const kShopSchema = "gui_precheck_shop";
const char* const kCleanSchema = "gui_precheck_clean";

// "@t" is the shop schema's table t.
std::string inShop(std::string statement) {
    for (size_t at = statement.find('@'); at != std::string::npos; at = statement.find('@', at)) {
        statement.replace(at, 1, std::string(kShopSchema) + ".");
    }
    return statement;
}

task::TaskSetup setupFor(const std::string& dir, const std::string& name, const std::string& schema,
                         const std::string& binlogName) {
    test::TaskFileOptions options;
    options.name = name;
    options.binlogName = binlogName;
    options.topLevelExtra = "block-allow-list:\n  only:\n    do-dbs: [\"" + schema + "\"]\n";
    options.instanceExtra = "    block-allow-list: only\n";
    auto files = test::writeTaskFiles(dir, options);
    std::vector<std::string> warnings;
    return task::makeTaskSetup(config::loadTaskConfig(files.task), config::loadSourceConfig(files.source), warnings);
}

int rowOf(const PrecheckFindingModel& model, const std::string& check) {
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.finding(row)->check == check) {
            return row;
        }
    }
    return -1;
}

}  // namespace

class PrecheckDialogTest : public QObject {
    Q_OBJECT

private:
    std::string dir_;
    task::TaskSetup setup_;
    task::TaskSetup shopSetup_;
    task::TaskSetup cleanSetup_;

    void runAndWait(PrecheckDialog& dialog) {
        QSignalSpy finished(&dialog, &PrecheckDialog::precheckFinished);
        dialog.runPrecheck();
        QVERIFY(finished.wait(kPrecheckTimeoutMs));
    }

private slots:
    // The GUI audits a task where `syncscope-cli run` does (it used ~/.local/share/SyncScope/SyncScope/):
    // one task run from both keeps one audit.
    void theGuiAuditsWhereTheCliDoes() {
        const QString path = PrecheckDialog::defaultAuditPath(QStringLiteral("orders"));
        QCOMPARE(path, QString::fromStdString(syncscope::defaultLogDirectory()) + "/orders-audit.jsonl");
    }

    void initTestCase() {
        dir_ = test::outputDir("ui/precheck");
        auto up = precheck::connectUpstreamSession(test::engineSettings(test::upstreamRoot()));
        auto down = precheck::connectDownstreamSession(test::engineSettings(test::downstreamRoot()));
        for (auto* side : {up.get(), down.get()}) {
            side->execute(std::string("DROP DATABASE IF EXISTS ") + kSchema);
            side->execute(std::string("CREATE DATABASE ") + kSchema);
            side->execute(std::string("CREATE TABLE ") + kSchema + ".orders (id INT PRIMARY KEY, qty INT)");
            side->execute(std::string("CREATE TABLE ") + kSchema + ".audit_trail (at DATETIME, what VARCHAR(40))");
        }
        down->execute(std::string("CREATE TRIGGER ") + kSchema + ".orders_qty BEFORE INSERT ON " + kSchema +
                      ".orders FOR EACH ROW SET NEW.qty = NEW.qty + 1");
        // A shop whose downstream was made by hand: a table missing, one with a column only it has, a
        // cascading foreign key; upstream a unique key over a nullable column.
        for (auto* side : {up.get(), down.get()}) {
            side->execute(std::string("DROP DATABASE IF EXISTS ") + kShopSchema);
            side->execute(std::string("CREATE DATABASE ") + kShopSchema);
        }
        up->execute(
            inShop("CREATE TABLE @customers (id INT PRIMARY KEY, email VARCHAR(80) NULL, "
                   "name VARCHAR(60) NOT NULL, UNIQUE KEY email_uk (email))"));
        up->execute(
            inShop("CREATE TABLE @invoices (id INT PRIMARY KEY, customer_id INT NOT NULL, total DECIMAL(10,2))"));
        up->execute(
            inShop("CREATE TABLE @invoice_lines (id INT PRIMARY KEY, invoice_id INT NOT NULL, sku VARCHAR(20))"));
        down->execute(
            inShop("CREATE TABLE @invoices (id INT PRIMARY KEY, customer_id INT NOT NULL, "
                   "total DECIMAL(10,2), region VARCHAR(10) NOT NULL)"));
        down->execute(
            inShop("CREATE TABLE @invoice_lines (id INT PRIMARY KEY, invoice_id INT NOT NULL, sku VARCHAR(20), "
                   "FOREIGN KEY (invoice_id) REFERENCES @invoices (id) ON DELETE CASCADE)"));
        // A task with nothing to fix: one keyed table, the same on both sides.
        for (auto* side : {up.get(), down.get()}) {
            side->execute(std::string("DROP DATABASE IF EXISTS ") + kCleanSchema);
            side->execute(std::string("CREATE DATABASE ") + kCleanSchema);
            side->execute(std::string("CREATE TABLE ") + kCleanSchema + ".stock (id INT PRIMARY KEY, qty INT)");
        }
        const std::string binlogName = up->query("SHOW MASTER STATUS").front()[0].value_or("");
        setup_ = setupFor(dir_, "gui_precheck", kSchema, binlogName);
        shopSetup_ = setupFor(dir_, "gui_precheck_shop", kShopSchema, binlogName);
        cleanSetup_ = setupFor(dir_, "gui_precheck_clean", kCleanSchema, binlogName);
    }

    void showsTheReportAndCopiesAFix() {
        PrecheckDialog dialog(setup_, QString::fromStdString(dir_ + "/copy-audit.jsonl"));
        QAbstractItemModelTester tester(dialog.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        dialog.show();
        runAndWait(dialog);
        QCOMPARE(dialog.report().exitCode(), 1);
        const int trigger = rowOf(*dialog.model(), "downstream.trigger");
        const int noKey = rowOf(*dialog.model(), "table.no_key");
        QVERIFY(trigger >= 0);
        QVERIFY(noKey >= 0);
        QVERIFY(dialog.summary().contains("2 tables replicated"));
        dialog.selectFinding(trigger);
        QVERIFY(dialog.details().contains("DROP TRIGGER `gui_precheck`.`orders_qty`;"));
        QVERIFY(dialog.applyButton()->isEnabled());
        dialog.copyFix();
        QCOMPARE(QGuiApplication::clipboard()->text(), QStringLiteral("DROP TRIGGER `gui_precheck`.`orders_qty`;"));
        QVERIFY(dialog.grab().save(QString::fromStdString(dir_ + "/precheck_findings.png")));
    }

    // Errors first, each finding's whole "what is wrong" in its row and a multi-line fix (the upstream's
    // CREATE TABLE under the routed name) readable in the details.
    void errorsComeFirstAndEveryFindingReadsInFull() {
        PrecheckDialog dialog(shopSetup_, QString::fromStdString(dir_ + "/shop-audit.jsonl"));
        QAbstractItemModelTester tester(dialog.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        dialog.resize(1280, 800);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        runAndWait(dialog);
        QCOMPARE(dialog.report().exitCode(), 2);
        QVERIFY2(dialog.summary().startsWith("3 tables replicated: 1 error, "), qPrintable(dialog.summary()));
        QCOMPARE(dialog.model()->finding(0)->severity, precheck::Severity::Error);
        const int missing = rowOf(*dialog.model(), "downstream.table_missing");
        QVERIFY(missing >= 0);
        QVERIFY(rowOf(*dialog.model(), "downstream.extra_column") >= 0);
        QVERIFY(rowOf(*dialog.model(), "downstream.foreign_key_cascade") >= 0);
        QVERIFY(rowOf(*dialog.model(), "table.nullable_unique_key") >= 0);
        dialog.selectFinding(missing);
        QVERIFY2(dialog.details().contains("CREATE TABLE `gui_precheck_shop`.`customers`"),
                 qPrintable(dialog.details()));
        QVERIFY(dialog.applyButton()->isEnabled());
        QVERIFY(dialog.grab().save(QString::fromStdString(dir_ + "/precheck_errors.png")));
    }

    // After Open Task the report shows itself only when there is something to fix; a clean task gets a
    // status bar line and no dialog.
    void openTaskShowsTheReportOnlyWhenThereIsSomethingToFix() {
        MainWindow window;
        window.show();
        QPointer<PrecheckDialog> withFindings =
            PrecheckDialog::checkOpenedTask(setup_, QString::fromStdString(dir_ + "/open-audit.jsonl"), &window);
        QVERIFY(!withFindings->isVisible());  // not before the report is in
        QSignalSpy finished(withFindings.data(), &PrecheckDialog::precheckFinished);
        QVERIFY(finished.wait(kPrecheckTimeoutMs));
        QCOMPARE(finished.front().at(0).toInt(), 1);
        QVERIFY(withFindings->isVisible());
        withFindings->close();
        QTRY_VERIFY(withFindings.isNull());  // closing it deletes it

        QPointer<PrecheckDialog> clean =
            PrecheckDialog::checkOpenedTask(cleanSetup_, QString::fromStdString(dir_ + "/clean-audit.jsonl"), &window);
        QSignalSpy cleanFinished(clean.data(), &PrecheckDialog::precheckFinished);
        QVERIFY(cleanFinished.wait(kPrecheckTimeoutMs));
        QVERIFY2(cleanFinished.front().at(0).toInt() == 0, qPrintable(clean->summary()));
        QTRY_VERIFY(clean.isNull());
        QCOMPARE(window.statusBar()->currentMessage(), PrecheckDialog::nothingToFixMessage());
    }

    void appliesAFixOnlyWhenConfirmedAndAuditsIt() {
        const QString auditPath = QString::fromStdString(dir_ + "/apply-audit.jsonl");
        QFile::remove(auditPath);
        PrecheckDialog dialog(setup_, auditPath);
        dialog.show();
        runAndWait(dialog);
        dialog.selectFinding(rowOf(*dialog.model(), "downstream.trigger"));
        QString askedServer;
        dialog.setConfirmer([&](const precheck::Finding&, const QString& server) {
            askedServer = server;
            return false;
        });
        dialog.applyFix();
        QVERIFY(askedServer.startsWith("the downstream root@127.0.0.1:"));
        QVERIFY(!QFile::exists(auditPath));
        QVERIFY(!dialog.isRunning());

        dialog.setConfirmer([](const precheck::Finding&, const QString&) { return true; });
        QSignalSpy fixed(&dialog, &PrecheckDialog::fixFinished);
        QSignalSpy rechecked(&dialog, &PrecheckDialog::precheckFinished);
        dialog.applyFix();
        QVERIFY(fixed.wait(kPrecheckTimeoutMs));
        QCOMPARE(fixed.front().at(1).toString(), QString());
        QVERIFY(rechecked.wait(kPrecheckTimeoutMs));
        QCOMPARE(rowOf(*dialog.model(), "downstream.trigger"), -1);
        QFile audit(auditPath);
        QVERIFY(audit.open(QIODevice::ReadOnly));
        const QByteArray line = audit.readLine();
        QVERIFY(line.contains("\"precheck-fix\""));
        QVERIFY(line.contains("DROP TRIGGER"));
    }
};

QTEST_MAIN(PrecheckDialogTest)
#include "test_precheck_dialog.moc"
