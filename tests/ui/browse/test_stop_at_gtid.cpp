// Task > Stop at a point with a GTID, over the real engine (a task in GTID mode) and the private MariaDB pair,
// offscreen: a GTID the task has already applied and text that is no point are refused in the dialog with the
// reason, nothing set; a GTID ahead is checked against the upstream's binlog from the applied point (the
// transactions and rows applied before the pause, where it pauses, nothing skipped); Set works only once the
// point is typed again; the task, resumed, pauses by itself right after that GTID's transaction.
#include <QtTest>

#include <QAction>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "tests/support/task_files.h"
#include "tests/support/test_env.h"
#include "tests/ui/browse/real_task_window.h"
#include "tests/ui/support/real_task.h"
#include "ui/dialogs/stop_point_dialog.h"
#include "ui/engine/engine_adapter.h"
#include "ui/main/main_window.h"
#include "ui/main/task_actions.h"

using namespace syncscope;
using namespace syncscope::ui;
using namespace syncscope::test::real_gui;
using source::UpstreamConnection;

class StopAtGtidTest : public QObject {
    Q_OBJECT

    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    QTemporaryDir dir_;

    std::string gtidNow() { return test::valueOf(*up_, "SELECT @@GLOBAL.gtid_binlog_pos"); }
    // Task > Stop at a point...: the dialog it opens.
    StopPointDialog* openStopDialog(MainWindow& window) {
        for (QAction* action : window.findChildren<QAction*>()) {
            if (action->text() == QStringLiteral("Stop at a &point...")) {
                action->trigger();
            }
        }
        return window.findChild<StopPointDialog*>(QStringLiteral("stopPointDialog"));
    }
    // Types a point and checks it; false when no answer came.
    bool check(StopPointDialog& dialog, const std::string& point) {
        QSignalSpy shown(&dialog, &StopPointDialog::planShown);
        dialog.pointEdit()->setText(QString::fromStdString(point));
        dialog.checkButton()->click();
        return shown.wait(kWaitMs);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        connectSuite("test_stop_at_gtid", up_, down_);
    }

    void aGtidAheadIsCheckedConfirmedAndReachedAPassedOneRefused() {
        freshDatabase(*up_, *down_, "stop_gtid", {"CREATE TABLE stop_gtid.orders (id INT PRIMARY KEY, qty INT)"});
        test::TaskFileOptions options = taskFromNow(*up_, "stop-gtid");
        options.gtidMode = true;
        options.binlogGtid = gtidNow();
        options.instanceExtra = "    block-allow-list: \"only-stop-gtid\"\n";
        options.topLevelExtra = "block-allow-list:\n  only-stop-gtid: {do-dbs: [\"stop_gtid\"]}\n";
        const test::TaskFiles files = test::writeTaskFiles(dir_.path().toStdString(), options);
        const QString audit = dir_.filePath("stop-gtid-audit.jsonl");

        MainWindow window;
        startTaskIn(window, files, audit);
        if (QTest::currentTestFailed()) {
            return;
        }
        up_->execute("INSERT INTO stop_gtid.orders VALUES (1, 1)");
        const std::string applied = gtidNow();
        QTRY_COMPARE_WITH_TIMEOUT(test::valueOf(*down_, "SELECT COUNT(*) FROM stop_gtid.orders"), std::string("1"),
                                  kWaitMs);
        window.actions()->pause()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Paused"), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(window.adapter()->lastSnapshot()->globalPersisted.gtid == applied, kWaitMs);
        up_->execute("INSERT INTO stop_gtid.orders VALUES (2, 1)");
        up_->execute("INSERT INTO stop_gtid.orders VALUES (3, 1), (30, 1)");
        const std::string stopGtid = gtidNow();
        const auto [stopFile, stopPos] = test::masterPosition(*up_);
        up_->execute("INSERT INTO stop_gtid.orders VALUES (4, 1)");

        StopPointDialog* dialog = openStopDialog(window);
        QVERIFY(dialog != nullptr);
        dialog->resize(kWidth * 3 / 5, kHeight * 3 / 8);

        // A GTID the task has applied: refused with where the task stands, nothing can be set.
        QVERIFY(check(*dialog, applied));
        QVERIFY(dialog->isRefused());
        QVERIFY2(dialog->planLabel()->text().contains("is already behind the task: it has applied up to"),
                 qPrintable(dialog->planLabel()->text()));
        QVERIFY(!dialog->confirmationEdit()->isEnabled());
        QVERIFY(!dialog->setButton()->isEnabled());
        dialog->layout()->activate();
        QVERIFY(dialog->grab().save(screenshotPath("stop_at_gtid_refused.png")));
        // Text that is no point: refused naming the forms.
        QVERIFY(check(*dialog, "soon"));
        QVERIFY(dialog->isRefused());
        QVERIFY2(dialog->planLabel()->text().contains("Refused, nothing changed"),
                 qPrintable(dialog->planLabel()->text()));

        // A GTID ahead: two transactions (three rows) are applied, then the task pauses after the second.
        QVERIFY(check(*dialog, stopGtid));
        QVERIFY(!dialog->isRefused());
        const QString plan = dialog->planLabel()->text();
        QVERIFY2(
            plan.contains("applies <b>2 transaction(s)</b> (3 row changes) and pauses after the last, transaction " +
                          QString::fromStdString(stopGtid) + ", ending at " + QString::fromStdString(stopFile) + ":" +
                          QString::number(stopPos)),
            qPrintable(plan));
        QVERIFY(plan.contains("Nothing is skipped."));
        QVERIFY(!dialog->setButton()->isEnabled());
        dialog->confirmationEdit()->setText(QStringLiteral("0-1-1"));
        QVERIFY(!dialog->setButton()->isEnabled());
        dialog->accept();  // refused while the point is not typed
        QVERIFY(dialog->isVisible());
        QVERIFY(window.adapter()->lastSnapshot()->stopPoint.empty());
        dialog->confirmationEdit()->setText(QString::fromStdString(stopGtid));
        QVERIFY(dialog->setButton()->isEnabled());
        dialog->layout()->activate();
        QVERIFY(dialog->grab().save(screenshotPath("stop_at_gtid_confirm.png")));
        dialog->setButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!window.adapter()->lastSnapshot()->stopPoint.empty(), kWaitMs);

        // Resumed, the task pauses by itself right after the GTID's transaction: rows 1-3 applied, 4 not.
        window.actions()->resume()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(
            window.adapter()->lastSnapshot()->stageReason.find("reached the stop point") != std::string::npos, kWaitMs);
        QCOMPARE(stageShown(window), QStringLiteral("Paused"));
        QCOMPARE(test::valueOf(*down_, "SELECT COUNT(*) FROM stop_gtid.orders"), std::string("4"));
        QCOMPARE(test::valueOf(*down_, "SELECT COUNT(*) FROM stop_gtid.orders WHERE id = 4"), std::string("0"));
        QCOMPARE(window.adapter()->lastSnapshot()->globalPersisted.gtid, stopGtid);
        window.actions()->stop()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Stopped"), kWaitMs);
        window.detachTask();
    }
};

QTEST_MAIN(StopAtGtidTest)
#include "test_stop_at_gtid.moc"
