// "Verify window" of the checkpoint inspection against the private MariaDB pair, offscreen: a DM-shaped
// checkpoint table whose table point runs ahead of its global point over a window of which the
// downstream got only part. The inspection flags it, Verify window decodes the window and lists each
// row (equal, missing, not deleted); Repair missing rows asks first (a refusal changes nothing), audits,
// inserts only the missing rows and verifies again. Screenshots for review.
#include <QtTest>

#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>

#include <map>

#include "tests/integration/outage/outage_helpers.h"
#include "tests/support/test_env.h"
#include "ui/browse/event_browser_links.h"
#include "ui/browse/event_browser_page.h"
#include "ui/inspect/checkpoint_inspection_model.h"
#include "ui/inspect/checkpoint_inspection_page.h"
#include "ui/inspect/inspection_filter_proxy.h"
#include "ui/inspect/skip_window_dialog.h"
#include "ui/models/event_browser_model.h"

using namespace syncscope;
using namespace syncscope::test;

namespace {

constexpr int kTimeoutMs = 60000;
const char* const kMeta = "verify_wgui_meta";
constexpr QSize kPageSize{1280, 800};

std::map<QString, QString> statesByKey(const ui::SkipWindowDialog& dialog) {
    std::map<QString, QString> states;
    const auto& report = *dialog.report();
    for (const auto& row : report.rows) {
        states[QString::fromStdString(row.key.front().display())] = verify::windowRowStateName(row.state);
    }
    return states;
}

}  // namespace

class VerifyWindowDialogTest : public QObject {
    Q_OBJECT

private slots:
    void windowRowsAreShownAndMissingOnesRepairedAfterConfirmation() {
        auto up = connectTo(upstreamRoot());
        auto down = connectTo(downstreamRoot());
        for (auto* side : {up.get(), down.get()}) {
            side->execute("DROP DATABASE IF EXISTS verify_wgui");
            side->execute("CREATE DATABASE verify_wgui");
            side->execute("CREATE TABLE verify_wgui.t (id INT PRIMARY KEY, v VARCHAR(20), n INT NULL)");
            side->execute("INSERT INTO verify_wgui.t SELECT seq, CONCAT('v', seq), NULL FROM verify_wgui.seq_1_to_10");
        }
        auto before = up->query("SHOW MASTER STATUS").front();
        up->execute("INSERT INTO verify_wgui.t VALUES (11, 'eleven', 1), (12, 'twelve', NULL)");
        up->execute("UPDATE verify_wgui.t SET v = 'three', n = 3 WHERE id = 3");
        up->execute("DELETE FROM verify_wgui.t WHERE id = 4");
        auto after = up->query("SHOW MASTER STATUS").front();
        // The downstream got 11 and the update of 3; 12 is missing, 4 was not deleted.
        down->execute("INSERT INTO verify_wgui.t VALUES (11, 'eleven', 1)");
        down->execute("UPDATE verify_wgui.t SET v = 'three', n = 3 WHERE id = 3");
        down->execute(std::string("DROP DATABASE IF EXISTS ") + kMeta);
        down->execute(std::string("CREATE DATABASE ") + kMeta);
        down->execute(std::string("CREATE TABLE ") + kMeta +
                      ".shop_syncer_checkpoint (id VARCHAR(32) NOT NULL, cp_schema VARCHAR(128) NOT NULL, "
                      "cp_table VARCHAR(128) NOT NULL, binlog_name VARCHAR(128), binlog_pos INT UNSIGNED, binlog_gtid "
                      "TEXT, exit_safe_binlog_name VARCHAR(128) DEFAULT '', exit_safe_binlog_pos INT UNSIGNED DEFAULT "
                      "0, exit_safe_binlog_gtid TEXT, table_info JSON NOT NULL, is_global BOOLEAN, create_time "
                      "timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP, update_time timestamp NOT NULL DEFAULT "
                      "CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, UNIQUE KEY uk_id_schema_table (id, cp_schema, "
                      "cp_table))");
        down->execute(std::string("INSERT INTO ") + kMeta +
                      ".shop_syncer_checkpoint (id, cp_schema, cp_table, binlog_name, binlog_pos, binlog_gtid, "
                      "table_info, is_global) VALUES ('mysql-3306', '', '', '" +
                      *before[0] + "', " + *before[1] + ", '', 'null', 1), ('mysql-3306', 'verify_wgui', 't', '" +
                      *after[0] + "', " + *after[1] + ", '', 'null', 0)");

        QTemporaryDir dir;
        ui::CheckpointInspectionPage page;
        page.resize(kPageSize);
        page.show();
        page.setAuditDirectory(dir.path());
        inspect::InspectionRequest request;
        request.target = engineSettings(downstreamRoot());
        request.metaSchema = kMeta;
        request.upstream = engineSettings(upstreamReplication());
        QSignalSpy inspected(&page, &ui::CheckpointInspectionPage::inspectionFinished);
        page.inspect(request);
        QTRY_COMPARE_WITH_TIMEOUT(inspected.count(), 1, kTimeoutMs);
        QCOMPARE(inspected.first().first().toBool(), true);

        // The global row has no window: the action stays off; the table point ahead of it turns it on.
        int tableRow = -1;
        int globalRow = -1;
        for (int row = 0; row < page.proxy()->rowCount(); ++row) {
            const auto& point = page.model()->pointRow(page.proxy()->mapToSource(page.proxy()->index(row, 0)).row());
            if (point.isGlobal) {
                globalRow = row;
            } else if (point.pointOf == "verify_wgui.t") {
                tableRow = row;
            }
        }
        QVERIFY(tableRow >= 0 && globalRow >= 0);
        page.view()->setCurrentIndex(page.proxy()->index(globalRow, 0));
        QVERIFY(!page.verifyWindowButton()->isEnabled());
        QVERIFY(page.verifyWindow() == nullptr);
        page.view()->setCurrentIndex(page.proxy()->index(tableRow, 0));
        QVERIFY(page.verifyWindowButton()->isEnabled());
        // Browse window: the event browser over the window, from the global point, filtered to the table.
        QVERIFY(page.browseWindowButton()->isEnabled());
        ui::EventBrowserPage browser;
        browser.resize(kPageSize);
        browser.show();
        connect(&page, &ui::CheckpointInspectionPage::browseWindowRequested, &browser,
                [&browser](const ui::SkipWindowBrowse& window) { ui::openSkipWindow(&browser, window); });
        QSignalSpy browsed(&browser, &ui::EventBrowserPage::pageShown);
        QVERIFY(page.browseWindow());
        QTRY_COMPARE_WITH_TIMEOUT(browsed.count(), 1, kTimeoutMs);
        QCOMPARE(browser.tableEdit()->text(), QString("verify_wgui.t"));
        // The page opens on the transaction ending at the global point; the window's follow it.
        const browse::BrowsedTransaction* first = browser.model()->transactionAt(browser.model()->targetIndex());
        QVERIFY(first);
        QVERIFY(browser.model()->targetIndex().row() + 3 < int(browser.model()->transactionCount()));
        QCOMPARE(QString::fromStdString(first->endFile + ":" + std::to_string(first->endPos)),
                 QString::fromStdString(*before[0] + ":" + *before[1]));
        const QString browseShot = QString::fromStdString(outputDir("ui")) + "/inspect_browse_window.png";
        QVERIFY(browser.grab().save(browseShot));
        qInfo("screenshot: %s", qPrintable(browseShot));
        const QString pageShot = QString::fromStdString(outputDir("ui")) + "/inspect_verify_window_action.png";
        QVERIFY(page.grab().save(pageShot));
        qInfo("screenshot: %s", qPrintable(pageShot));

        ui::SkipWindowDialog* dialog = page.verifyWindow();
        QVERIFY(dialog);
        dialog->show();
        QSignalSpy done(dialog, &ui::SkipWindowDialog::finished);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kTimeoutMs);
        QVERIFY2(done.first().first().toBool(), qPrintable(dialog->summaryText()));
        const std::map<QString, QString> found{
            {"11", "equal"}, {"12", "missing"}, {"3", "equal"}, {"4", "not deleted"}};
        QCOMPARE(statesByKey(*dialog), found);
        QCOMPARE(dialog->rowsView()->rowCount(), 4);
        QVERIFY(dialog->summaryText().contains("1 missing"));
        QVERIFY(dialog->repairButton()->isEnabled());
        const QString shot = QString::fromStdString(outputDir("ui")) + "/verify_window_dialog.png";
        QVERIFY(dialog->grab().save(shot));
        qInfo("screenshot: %s", qPrintable(shot));

        const QString auditPath = dir.filePath("shop-audit.jsonl");
        QString asked;
        dialog->setConfirmation([&](const QString& question) {
            asked = question;
            return false;
        });
        QVERIFY(!dialog->repairMissing());
        QVERIFY(asked.contains("Insert 1 missing row(s) into verify_wgui.t"));
        QCOMPARE(down->queryValue("SELECT COUNT(*) FROM verify_wgui.t WHERE id = 12").value_or(""), std::string("0"));
        QVERIFY(!QFile::exists(auditPath));

        dialog->setConfirmation([](const QString&) { return true; });
        QVERIFY(dialog->repairMissing());
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, kTimeoutMs);
        QVERIFY2(done.last().first().toBool(), qPrintable(dialog->summaryText()));
        const std::map<QString, QString> repaired{
            {"11", "equal"}, {"12", "equal"}, {"3", "equal"}, {"4", "not deleted"}};
        QCOMPARE(statesByKey(*dialog), repaired);  // only the missing row was written
        QCOMPARE(down->queryValue("SELECT v FROM verify_wgui.t WHERE id = 12").value_or(""), std::string("twelve"));
        QCOMPARE(down->queryValue("SELECT COUNT(*) FROM verify_wgui.t WHERE id = 4").value_or(""), std::string("1"));
        QFile audit(auditPath);
        QVERIFY(audit.open(QIODevice::ReadOnly));
        const QByteArray lines = audit.readAll();
        QVERIFY2(lines.contains("\"action\":\"verify-window-repair\"") && lines.contains("twelve") &&
                     lines.contains("\"from\":\"gui\""),
                 lines.constData());
        const QString repairedShot = QString::fromStdString(outputDir("ui")) + "/verify_window_repaired.png";
        QVERIFY(dialog->grab().save(repairedShot));
        qInfo("screenshot: %s", qPrintable(repairedShot));
    }

    void cleanupTestCase() {
        auto down = connectTo(downstreamRoot());
        down->execute(std::string("DROP DATABASE IF EXISTS ") + kMeta);
    }
};

QTEST_MAIN(VerifyWindowDialogTest)
#include "test_verify_window_dialog.moc"
