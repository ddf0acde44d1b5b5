// The event browser over the real engine and the private MariaDB pair, offscreen: a task stops on a
// failed row (the DM scenario: a filtered ALTER); "Browse around" on the failed-event panel opens the
// browser at the failing transaction; after the downstream is fixed, "Resume from here" on an earlier
// transaction (whose row the downstream had lost) replays from there through the task's resume-from,
// in safe mode, and every table ends equal to its upstream twin. "Check rows downstream" shows the lost row
// missing although its transaction is applied by position; "Resume after it" going forward saves the skipped
// rows as SQL named in the resume-from's own audit entry, and that SQL restores them.
#include <QtTest>

#include <QApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeView>

#include "tests/support/task_files.h"
#include "tests/support/test_env.h"
#include "tests/ui/browse/real_task_window.h"
#include "tests/ui/support/real_task.h"
#include "ui/browse/event_browser_links.h"
#include "ui/browse/event_browser_page.h"
#include "ui/dialogs/window_preview_dialog.h"
#include "ui/engine/engine_adapter.h"
#include "ui/main/main_window.h"
#include "ui/main/task_actions.h"
#include "ui/main/task_view.h"
#include "ui/models/event_browser_model.h"
#include "ui/pages/failed_event_panel.h"
#include "ui/widgets/position_ruler.h"

using namespace syncscope;
using namespace syncscope::ui;
using namespace syncscope::test::real_gui;
using source::UpstreamConnection;

namespace {

// The page's transaction holding a row of `table` with key `key`, or -1.
int transactionWithKey(const EventBrowserModel& model, const std::string& table, const std::string& key) {
    for (int row = 0; row < model.rowCount(); ++row) {
        const auto* trx = model.transactionAt(model.index(row, 0));
        for (const auto& event : trx->events) {
            for (const auto& image : event.rows) {
                if (event.table == table && image.keyText == key) {
                    return row;
                }
            }
        }
    }
    return -1;
}

}  // namespace

class EventBrowserRealTaskTest : public QObject {
    Q_OBJECT

    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    QTemporaryDir dir_;

    bool tablesEqual(const std::vector<std::string>& tables) {
        for (const std::string& table : tables) {
            const std::string sql = "CHECKSUM TABLE " + table;
            if (*down_->query(sql).front()[1] != *up_->query(sql).front()[1]) {
                qWarning("%s differs downstream", table.c_str());
                return false;
            }
        }
        return true;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        connectSuite("test_event_browser_real_task", up_, down_);
    }

    void browseAroundTheFailedEventAndResumeFromAnEarlierTransaction() {
        freshDatabase(*up_, *down_, "browse_gui",
                      {"CREATE TABLE browse_gui.orders (id INT PRIMARY KEY, qty INT)",
                       "CREATE TABLE browse_gui.t1 (c INT PRIMARY KEY, c2 INT)"});
        test::TaskFileOptions options = taskFromNow(*up_, "browse-gui");
        options.instanceExtra =
            "    block-allow-list: \"ba-rule1\"\n"
            "    filter-rules: [\"filter-rule-1\"]\n";
        options.topLevelExtra =
            "block-allow-list:\n"
            "  ba-rule1: {do-dbs: [\"browse_gui\"]}\n"
            "filters:\n"
            "  filter-rule-1: {schema-pattern: \"browse_gui\", table-pattern: \"t1\", events: [\"all ddl\"], "
            "action: Ignore}\n";
        const test::TaskFiles files = test::writeTaskFiles(dir_.path().toStdString(), options);
        const QString audit = dir_.filePath("browse-gui-audit.jsonl");

        MainWindow window;
        startTaskIn(window, files, audit);
        if (QTest::currentTestFailed()) {
            return;
        }
        for (int id = 1; id <= 3; ++id) {
            up_->execute("INSERT INTO browse_gui.orders VALUES (" + std::to_string(id) + ", 1)");
        }
        QTRY_COMPARE_WITH_TIMEOUT(test::valueOf(*down_, "SELECT COUNT(*) FROM browse_gui.orders"), std::string("3"),
                                  kWaitMs);
        down_->execute("DELETE FROM browse_gui.orders WHERE id = 2");  // a row the downstream lost
        up_->execute("ALTER TABLE browse_gui.t1 ADD c3 INT");          // ignored by filter-rule-1
        up_->execute("INSERT INTO browse_gui.t1 VALUES (1, 1, 1)");    // fails downstream: no column c3
        QTRY_VERIFY_WITH_TIMEOUT(window.taskView()->failedEventShown(), kWaitMs);
        FailedEventPanel* panel = window.taskView()->failedEventPanel();
        QVERIFY(panel->browseButton()->isEnabled());

        // Browse around the failed event: the failing transaction is selected, the earlier ones listed.
        panel->browseButton()->click();
        EventBrowserPage* page = window.showEventBrowser();
        QSignalSpy shown(page, &EventBrowserPage::pageShown);
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty() || (!page->isBusy() && page->model()->transactionCount() > 0),
                                 kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(!page->isBusy(), kWaitMs);
        const auto* failing = page->model()->transactionAt(page->tree()->currentIndex());
        QVERIFY2(failing != nullptr, qPrintable(page->statusLabel()->text()));
        QCOMPARE(QString::fromStdString(failing->events.back().type), QString("XID_EVENT"));
        bool insertsIntoT1 = false;
        for (const auto& event : failing->events) {
            insertsIntoT1 = insertsIntoT1 || (event.table == "t1" && event.operation == "insert");
        }
        QVERIFY(insertsIntoT1);
        int lost = transactionWithKey(*page->model(), "orders", "2");
        QVERIFY(lost >= 0);
        QVERIFY(lost < page->tree()->currentIndex().row());
        QCOMPARE(page->model()->index(lost, EventBrowserModel::AppliedColumn).data().toString(), QString("applied"));
        QCOMPARE(page->model()
                     ->index(page->tree()->currentIndex().row(), EventBrowserModel::AppliedColumn)
                     .data()
                     .toString(),
                 QString("not yet"));
        page->resize(kWidth, kHeight);
        QVERIFY(page->grab().save(screenshotPath("event_browser_failed_event.png")));

        // "Check rows downstream": the page's rows at their last change, checked by the downstream itself.
        QVERIFY(page->checkRowsButton()->isEnabled());
        QSignalSpy checked(page, &EventBrowserPage::rowCheckShown);
        page->checkRowsButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!checked.isEmpty(), kWaitMs);
        const auto* lostRows = page->model()->rowCheckAt(static_cast<size_t>(lost));
        QVERIFY2(lostRows != nullptr && lostRows->missing == 1 && lostRows->equal == 0,
                 qPrintable(page->statusLabel()->text()));
        QCOMPARE(page->model()->index(lost, EventBrowserModel::AppliedColumn).data().toString(),
                 QString("applied; rows: 1 missing"));  // applied by position, yet the row is not there
        const int failingRow = page->tree()->currentIndex().row();
        const auto* failingRows = page->model()->rowCheckAt(static_cast<size_t>(failingRow));
        QVERIFY(failingRows != nullptr && failingRows->missing == 1);  // t1's row: its column is missing downstream
        const int third = transactionWithKey(*page->model(), "orders", "3");
        QCOMPARE(page->model()->rowCheckAt(static_cast<size_t>(third))->equal, size_t(1));
        page->tree()->setCurrentIndex(page->model()->index(lost, 0));
        QCOMPARE(page->rowsTable()->item(0, 4)->text(), QString("missing"));
        QVERIFY(page->grab().save(screenshotPath("event_browser_row_check.png")));

        // A right-click on the ruler's global marker offers to browse at that point.
        const auto atFailure = window.adapter()->lastSnapshot();
        QVERIFY(atFailure->globalPersisted.known() && atFailure->globalPersisted.axis);
        const double markerX = window.taskView()->ruler()->xOf(static_cast<double>(*atFailure->globalPersisted.axis));
        bool offered = false;
        for (const auto& [name, point] : window.browserLinks()->rulerMarkersNear(markerX)) {
            offered = offered ||
                      (name == QStringLiteral("global (persisted)") && point.file == atFailure->globalPersisted.file &&
                       point.offset == atFailure->globalPersisted.pos);
        }
        QVERIFY(offered);

        // The DBA fixes the downstream, stops the task and resumes from the lost row's transaction.
        down_->execute("ALTER TABLE browse_gui.t1 ADD c3 INT");
        window.actions()->stop()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Stopped"), kWaitMs);
        page->setResumeEnabled(true);
        page->tree()->setCurrentIndex(page->model()->index(lost, 0));
        QVERIFY(page->resumeHereButton()->isEnabled());
        page->resumeHereButton()->click();
        // Going back: the preview lists the rows applied again with their downstream state.
        WindowPreviewDialog* replay = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (replay = window.findChild<WindowPreviewDialog*>(QStringLiteral("windowPreviewDialog"))) != nullptr &&
                !replay->isBusy(),
            kWaitMs);
        QVERIFY2(replay->preview().has_value(), qPrintable(replay->error()));
        // The window runs from the chosen transaction to the persisted global point (the failed t1 row lies
        // after it and is applied in any case).
        QCOMPARE(stateShown(*replay, "browse_gui.orders", "1"), QString());
        QCOMPARE(stateShown(*replay, "browse_gui.orders", "2"), QString("missing"));
        QCOMPARE(stateShown(*replay, "browse_gui.orders", "3"), QString("equal"));
        QCOMPARE(stateShown(*replay, "browse_gui.t1", "1"), QString());
        QVERIFY(!replay->confirmButton()->isEnabled());  // until the point is typed
        replay->confirmationEdit()->setText(replay->typedConfirmation());
        replay->layout()->activate();  // the summary's new height, before the picture
        QVERIFY(replay->grab().save(screenshotPath("resume_from_preview.png")));
        replay->confirmButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(test::valueOf(*down_, "SELECT COUNT(*) FROM browse_gui.orders"), std::string("3"),
                                  kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(test::valueOf(*down_, "SELECT COUNT(*) FROM browse_gui.t1"), std::string("1"),
                                  kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Running"), kWaitMs);
        QVERIFY(tablesEqual({"browse_gui.orders", "browse_gui.t1"}));
        QFile auditFile(audit);
        QVERIFY(auditFile.open(QIODevice::ReadOnly));
        QVERIFY(auditFile.readAll().contains("resume-from"));

        // "Pause the task after it" on a transaction not applied yet: the DBA pauses, two rows arrive, the
        // browser shows them; the task, resumed, pauses by itself after the first and says why.
        window.actions()->pause()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Paused"), kWaitMs);
        const auto [fileBefore, posBefore] = test::masterPosition(*up_);
        up_->execute("INSERT INTO browse_gui.orders VALUES (4, 1)");
        up_->execute("INSERT INTO browse_gui.orders VALUES (5, 1)");
        page->openFrom(QStringLiteral("%1:%2").arg(QString::fromStdString(fileBefore)).arg(posBefore));
        QTRY_VERIFY_WITH_TIMEOUT(!page->isBusy() && transactionWithKey(*page->model(), "orders", "4") >= 0, kWaitMs);
        const int fourth = transactionWithKey(*page->model(), "orders", "4");
        QCOMPARE(page->model()->index(fourth, EventBrowserModel::AppliedColumn).data().toString(), QString("not yet"));
        page->tree()->setCurrentIndex(page->model()->index(fourth, 0));
        QVERIFY(page->stopAfterButton()->isEnabled());
        page->stopAfterButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!window.adapter()->lastSnapshot()->stopPoint.empty(), kWaitMs);
        window.actions()->resume()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(
            window.adapter()->lastSnapshot()->stageReason.find("reached the stop point") != std::string::npos, kWaitMs);
        QCOMPARE(stageShown(window), QStringLiteral("Paused"));
        QCOMPARE(test::valueOf(*down_, "SELECT COUNT(*) FROM browse_gui.orders"), std::string("4"));
        QCOMPARE(test::valueOf(*down_, "SELECT COUNT(*) FROM browse_gui.orders WHERE id = 5"), std::string("0"));
        QVERIFY(window.adapter()->lastSnapshot()->stopPoint.empty());  // one-shot, as START SLAVE UNTIL
        QVERIFY(window.grab().save(screenshotPath("stop_point_reached.png")));

        // The same point again is behind the task now: refused with the reason, nothing set.
        QSignalSpy answered(window.adapter(), &EngineAdapter::commandFinished);
        page->stopAfterButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!answered.isEmpty(), kWaitMs);
        const auto refusal = answered.takeFirst().at(1).value<task::CommandResult>();
        QVERIFY(!refusal.accepted);
        QVERIFY2(refusal.reason.find("already behind the task") != std::string::npos, refusal.reason.c_str());
        QVERIFY(window.adapter()->lastSnapshot()->stopPoint.empty());

        // A skip with its preview: a transaction whose t1 row fails (c4 is missing downstream, the ALTER was
        // filtered). The preview lists its rows with their downstream state; "Skip it" saves the replay SQL and
        // names it in the audit log; after the DBA's fix the saved SQL restores the skipped rows.
        up_->execute("ALTER TABLE browse_gui.t1 ADD c4 INT");  // ignored by filter-rule-1
        up_->execute("BEGIN");
        up_->execute("INSERT INTO browse_gui.orders VALUES (6, 1)");
        up_->execute("INSERT INTO browse_gui.t1 VALUES (2, 2, 2, 2)");
        up_->execute("COMMIT");
        window.actions()->resume()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(window.taskView()->failedEventShown(), kWaitMs);
        QCOMPARE(test::valueOf(*down_, "SELECT COUNT(*) FROM browse_gui.orders WHERE id = 5"), std::string("1"));
        emit window.taskView()->skipConfirmed();  // the DBA typed the confirmation in the panel's dialog
        WindowPreviewDialog* skipPreview = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (skipPreview = window.findChild<WindowPreviewDialog*>(QStringLiteral("windowPreviewDialog"))) != nullptr &&
                !skipPreview->isBusy(),
            kWaitMs);
        QVERIFY2(skipPreview->preview().has_value(), qPrintable(skipPreview->error()));
        QCOMPARE(skipPreview->preview()->transactions.size(), size_t(1));
        QCOMPARE(stateShown(*skipPreview, "browse_gui.t1", "2"), QString("missing"));
        const QString sixth = stateShown(*skipPreview, "browse_gui.orders", "6");  // its worker may have committed it
        QVERIFY2(sixth == "missing" || sixth == "equal", qPrintable(sixth));
        QCOMPARE(stateShown(*skipPreview, "browse_gui.orders", "5"), QString());  // not in the skipped transaction
        QVERIFY(skipPreview->grab().save(screenshotPath("skip_preview.png")));
        skipPreview->confirmButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Running"), kWaitMs);
        QByteArray auditLines;  // the task writes its skip entry right after the command is accepted
        QTRY_VERIFY_WITH_TIMEOUT(
            auditFile.seek(0) && (auditLines = auditFile.readAll()).contains("\"action\":\"skip\""), kWaitMs);
        QVERIFY2(!auditLines.contains("skip-preview"), "the skip's SQL file is named in a separate entry");
        QString sqlPath;
        for (const QByteArray& line : auditLines.split('\n')) {
            if (line.contains("\"action\":\"skip\"")) {  // the skip's own entry names its undo
                sqlPath = QJsonDocument::fromJson(line)
                              .object()
                              .value("details")
                              .toObject()
                              .value("replay_sql_file")
                              .toString();
            }
        }
        QFile sqlFile(sqlPath);
        QVERIFY2(sqlFile.open(QIODevice::ReadOnly), qPrintable(sqlPath));
        const QString sql = QString::fromUtf8(sqlFile.readAll());
        QVERIFY2(sql.contains("`browse_gui`.`t1`"), qPrintable(sql));
        QCOMPARE(test::valueOf(*down_, "SELECT COUNT(*) FROM browse_gui.t1 WHERE c = 2"), std::string("0"));
        down_->execute("ALTER TABLE browse_gui.t1 ADD c4 INT");
        for (const QString& line : sql.split('\n')) {
            if (!line.isEmpty() && !line.startsWith("--")) {
                down_->execute(line.toStdString());
            }
        }
        QTRY_VERIFY_WITH_TIMEOUT(tablesEqual({"browse_gui.orders", "browse_gui.t1"}), kWaitMs);

        // "Resume after it" going forward skips rows: the preview saves them as replay SQL first and the
        // resume-from's own audit entry names the file (no separate entry); the file restores them.
        window.actions()->pause()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Paused"), kWaitMs);
        const auto [fileBeforeSkip, posBeforeSkip] = test::masterPosition(*up_);
        up_->execute("INSERT INTO browse_gui.orders VALUES (7, 1)");
        up_->execute("UPDATE browse_gui.orders SET qty = 9 WHERE id = 1");
        page->openFrom(QStringLiteral("%1:%2").arg(QString::fromStdString(fileBeforeSkip)).arg(posBeforeSkip));
        QTRY_VERIFY_WITH_TIMEOUT(!page->isBusy() && transactionWithKey(*page->model(), "orders", "1") >= 0, kWaitMs);
        page->tree()->setCurrentIndex(page->model()->index(transactionWithKey(*page->model(), "orders", "1"), 0));
        QVERIFY(page->resumeAfterButton()->isEnabled());
        // The skip's dialog is gone (closed, deleted): the next one found is the resume-from's.
        QTRY_VERIFY_WITH_TIMEOUT(
            window.findChild<WindowPreviewDialog*>(QStringLiteral("windowPreviewDialog")) == nullptr, kWaitMs);
        page->resumeAfterButton()->click();
        WindowPreviewDialog* forward = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT(
            (forward = window.findChild<WindowPreviewDialog*>(QStringLiteral("windowPreviewDialog"))) != nullptr &&
                !forward->isBusy(),
            kWaitMs);
        QVERIFY2(forward->preview().has_value(), qPrintable(forward->error()));
        QCOMPARE(stateShown(*forward, "browse_gui.orders", "7"), QString("missing"));
        QCOMPARE(stateShown(*forward, "browse_gui.orders", "1"), QString("different"));
        forward->confirmationEdit()->setText(forward->typedConfirmation());
        forward->confirmButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Running"), kWaitMs);
        QJsonObject resumeEntry;
        QByteArray allAudit;
        QTRY_VERIFY_WITH_TIMEOUT(
            auditFile.seek(0) &&
                [&] {
                    allAudit = auditFile.readAll();
                    for (const QByteArray& line : allAudit.split('\n')) {
                        QJsonObject entry = QJsonDocument::fromJson(line).object();
                        if (entry.value("action").toString() == "resume-from" &&
                            entry.value("details").toObject().contains("replay_sql_file")) {
                            resumeEntry = entry;
                        }
                    }
                    return !resumeEntry.isEmpty();
                }(),
            kWaitMs);
        QVERIFY2(!allAudit.contains("resume-from-preview"), "the resume-from's SQL file is named in a separate entry");
        const QJsonObject details = resumeEntry.value("details").toObject();
        QCOMPARE(details.value("preview").toObject().value("rows_missing").toInt(), 1);
        QCOMPARE(details.value("preview").toObject().value("rows_different").toInt(), 1);
        QFile forwardSql(details.value("replay_sql_file").toString());
        QVERIFY2(forwardSql.open(QIODevice::ReadOnly), qPrintable(forwardSql.fileName()));
        QCOMPARE(test::valueOf(*down_, "SELECT COUNT(*) FROM browse_gui.orders WHERE id = 7"), std::string("0"));
        for (const QString& line : QString::fromUtf8(forwardSql.readAll()).split('\n')) {
            if (!line.isEmpty() && !line.startsWith("--")) {
                down_->execute(line.toStdString());
            }
        }
        QVERIFY(tablesEqual({"browse_gui.orders", "browse_gui.t1"}));
        window.actions()->stop()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Stopped"), kWaitMs);
        window.detachTask();
    }
};

QTEST_MAIN(EventBrowserRealTaskTest)
#include "test_event_browser_real_task.moc"
