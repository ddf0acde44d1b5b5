// The overview as the start page of the main window, offscreen: the start area while the workspace is
// empty, one row per channel once tasks are open (a failed one, a flagged one, a lost remote engine),
// double-click opens the channel in the task view and Ctrl+0 comes back, batch pause with one
// confirmation listing what happens, the tray icon's worst state, and the workspace restored from the
// last session. Screenshots at 1280x800 for review.
#include <QtTest>

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStackedWidget>
#include <QSystemTrayIcon>
#include <QTableView>
#include <QTemporaryDir>

#include "tests/support/test_env.h"
#include "tests/ui/support/simulated_task.h"
#include "ui/engine/engine_adapter.h"
#include "ui/fleet/fleet_filter_proxy.h"
#include "ui/fleet/fleet_model.h"
#include "ui/fleet/notification_center.h"
#include "ui/fleet/workspace.h"
#include "ui/main/fleet_controller.h"
#include "ui/main/main_window.h"
#include "ui/main/task_view.h"
#include "ui/overview/channel_dialogs.h"
#include "ui/overview/overview_page.h"

using namespace syncscope::ui;
using syncscope::test::SimulatedTask;

namespace {

constexpr int kWidth = 1280;
constexpr int kHeight = 800;

QString screenshotPath(const char* name) {
    return QString::fromStdString(syncscope::test::outputDir("ui")) + "/" + name;
}

ChannelSpec localSpec(const QString& name) {
    ChannelSpec spec;
    spec.taskPath = QStringLiteral("/srv/dm/%1.yaml").arg(name);
    spec.sourcePath = QStringLiteral("/srv/dm/%1-source.yaml").arg(name);
    return spec;
}

}  // namespace

class OverviewPageTest : public QObject {
    Q_OBJECT

private:
    std::vector<std::shared_ptr<SimulatedTask>> tasks_;

    void openFleet(MainWindow& window) {
        tasks_.clear();
        const char* names[] = {"orders", "billing", "audit", "reporting"};
        for (const char* name : names) {
            auto task = std::make_shared<SimulatedTask>(4);
            task->start();
            tasks_.push_back(task);
            window.fleetController()->model()->addGroup(localTaskGroup(localSpec(QString::fromLatin1(name)), task));
        }
        tasks_[0]->advance(400000, 12000);
        tasks_[1]->advance(2000, 40);
        tasks_[1]->flush();
        tasks_[1]->putTableAhead(2, 900, 4);
        tasks_[2]->fail(SimulatedTask::missingColumnEvent());
        tasks_[3]->pause();
        ChannelSpec lost;
        lost.kind = ChannelKind::RemoteEngine;
        lost.host = QStringLiteral("127.0.0.1");
        lost.port = syncscope::test::freeLoopbackPort();
        window.fleetController()->addChannel(lost);
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                window.fleetController()->refresh();
                return window.fleetController()->model()->rowCount() == 5 &&
                       window.fleetController()->model()->rowAt(4).lost &&
                       !window.fleetController()->model()->rowAt(4).lastError.isEmpty();
            }(),
            10000);
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("SyncScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_overview_page"));
        QSettings().clear();
    }

    void emptyWorkspaceShowsTheStartArea() {
        MainWindow window;
        window.resize(kWidth, kHeight);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.overviewShown());
        QVERIFY(window.overview()->showingStartArea());
        QVERIFY(window.grab().save(screenshotPath("overview_start_area.png")));
    }

    void everyChannelIsOneRowAndDoubleClickOpensIt() {
        MainWindow window;
        window.resize(kWidth, kHeight);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        openFleet(window);
        QVERIFY(!window.overview()->showingStartArea());
        QTableView* table = window.overview()->table();
        QCOMPARE(table->model()->rowCount(), 5);
        QCOMPARE(window.fleetController()->model()->rowAt(4).stage, QStringLiteral("Lost"));
        QCOMPARE(window.fleetController()->model()->worstHealth(), ChannelHealth::Failed);
        QVERIFY(window.tray()->toolTip().contains(QStringLiteral("failed or lost")));
        table->sortByColumn(FleetModel::StageColumn, Qt::DescendingOrder);
        QTest::qWait(50);
        QVERIFY(window.grab().save(screenshotPath("overview_fleet.png")));

        // Double-click the flagged channel: the task view shows it, with its flag.
        FleetFilterProxy* proxy = window.overview()->proxy();
        int billingRow = -1;
        for (int row = 0; row < proxy->rowCount(); ++row) {
            if (proxy->index(row, FleetModel::ChannelColumn).data().toString() == QStringLiteral("billing.yaml")) {
                billingRow = row;
            }
        }
        QVERIFY(billingRow >= 0);
        const QRect cell = table->visualRect(proxy->index(billingRow, FleetModel::ChannelColumn));
        // A real double-click presses first: the view activates only the index the press hit.
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QTRY_VERIFY(!window.overviewShown());
        window.adapter()->refreshNow();
        QCOMPARE(window.adapter()->lastSnapshot()->tables.size(), size_t(4));
        QVERIFY(window.adapter()->lastSnapshot()->tables[2].aheadOfGlobal);
        QVERIFY(window.windowTitle().contains(QStringLiteral("billing.yaml")));
        QTest::keyClick(&window, Qt::Key_0, Qt::ControlModifier);
        QVERIFY(window.overviewShown());
    }

    void addDialogsKeepOkDisabledWhileTheEntryCannotWork() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        AddRemoteEngineDialog remote;
        QPushButton* ok = remote.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY(!ok->isEnabled());
        QVERIFY2(remote.problemLabel()->text().contains(QStringLiteral("host is empty")),
                 qPrintable(remote.problemLabel()->text()));
        remote.hostEdit()->setText(QStringLiteral("db-sync-01"));
        QVERIFY(ok->isEnabled());
        remote.tlsBox()->setChecked(true);
        remote.caEdit()->setText(dir.filePath(QStringLiteral("missing-ca.pem")));
        QVERIFY(!ok->isEnabled());
        QVERIFY2(remote.problemLabel()->text().contains(QStringLiteral("CA file")) &&
                     remote.problemLabel()->text().contains(QStringLiteral("does not exist")),
                 qPrintable(remote.problemLabel()->text()));
        remote.caEdit()->clear();
        remote.tokenEdit()->setText(dir.path());  // a folder is no token file
        QVERIFY(!ok->isEnabled());
        QVERIFY2(remote.problemLabel()->text().contains(QStringLiteral("cannot be read")),
                 qPrintable(remote.problemLabel()->text()));

        AddReplicaDialog replica;
        QPushButton* replicaOk = replica.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        replica.hostEdit()->setText(QStringLiteral("10.0.0.7"));
        QVERIFY(!replicaOk->isEnabled());
        QVERIFY2(replica.problemLabel()->text().contains(QStringLiteral("user is empty")),
                 qPrintable(replica.problemLabel()->text()));
        replica.userEdit()->setText(QStringLiteral("monitor"));
        replica.passwordFileEdit()->setText(dir.filePath(QStringLiteral("no-password-file")));
        QVERIFY(!replicaOk->isEnabled());
        replica.passwordEdit()->setText(QStringLiteral("typed"));  // a typed password wins
        QVERIFY(replicaOk->isEnabled());
        QVERIFY(replica.problemLabel()->text().isEmpty());
    }

    void batchPauseAsksOnceAndPausesOnlyRunningChannels() {
        MainWindow window;
        window.resize(kWidth, kHeight);
        openFleet(window);
        QStringList asked;
        window.fleetController()->setBatchConfirmer([&asked](const QString& text) {
            asked << text;
            return true;
        });
        window.overview()->table()->selectAll();
        QVERIFY(window.overview()->pauseButton()->isEnabled());
        QSignalSpy finished(window.fleetController()->batchRunner(), &BatchRunner::finished);
        window.overview()->pauseButton()->click();
        QCOMPARE(asked.size(), 1);
        QVERIFY2(asked.front().contains(QStringLiteral("Pause 2 of the 5 selected")), qPrintable(asked.front()));
        QVERIFY2(asked.front().contains(QStringLiteral("left alone: not reachable")), qPrintable(asked.front()));
        QVERIFY(finished.wait(5000));
        QCOMPARE(tasks_[0]->stage(), syncscope::task::Stage::Paused);
        QCOMPARE(tasks_[1]->stage(), syncscope::task::Stage::Paused);
        QCOMPARE(tasks_[2]->stage(), syncscope::task::Stage::Error);

        // Declined: nothing happens.
        window.fleetController()->setBatchConfirmer([](const QString&) { return false; });
        window.fleetController()->runBatch(BatchCommand::Resume, {0, 1});
        QTest::qWait(100);
        QCOMPARE(tasks_[0]->stage(), syncscope::task::Stage::Paused);
    }

    void failuresBecomeNotificationsInTheLog() {
        MainWindow window;
        openFleet(window);
        const QDateTime t0 = QDateTime::currentDateTime();
        window.fleetController()->notifications()->observe(*window.fleetController()->model(), t0);
        window.fleetController()->notifications()->observe(*window.fleetController()->model(),
                                                           t0.addSecs(NotificationCenter::kHoldSeconds));
        // audit.yaml failed, billing.yaml flagged, the remote engine lost.
        QCOMPARE(window.fleetController()->notifications()->log()->rowCount(), 3);
        QCOMPARE(window.overview()->notificationTable()->model()->rowCount(), 3);
    }

    void workspaceOfTheLastSessionIsRestored() {
        {
            QSettings settings;
            ChannelSpec lost;
            lost.kind = ChannelKind::RemoteEngine;
            lost.host = QStringLiteral("127.0.0.1");
            lost.port = syncscope::test::freeLoopbackPort();
            saveWorkspace(settings, {localSpec(QStringLiteral("orders")), lost});
        }
        MainWindow window;
        QStringList opened;
        window.fleetController()->setLocalTaskOpener([&opened](const ChannelSpec& spec, QString*) {
            opened << spec.taskPath;
            return std::make_shared<SimulatedTask>(2);
        });
        window.fleetController()->restoreWorkspace();
        window.fleetController()->refresh();
        QCOMPARE(opened, QStringList{QStringLiteral("/srv/dm/orders.yaml")});
        QCOMPARE(window.fleetController()->model()->groupCount(), 2);
        // A channel added now is kept for the next session.
        ChannelSpec replica;
        replica.kind = ChannelKind::NativeReplica;
        replica.host = QStringLiteral("127.0.0.1");
        replica.port = syncscope::test::freeLoopbackPort();
        replica.user = QStringLiteral("root");
        window.fleetController()->addChannel(replica);
        QSettings settings;
        QStringList problems;
        QCOMPARE(loadWorkspace(settings, &problems).size(), 3);
        QSettings().clear();
    }
};

QTEST_MAIN(OverviewPageTest)
#include "test_overview_page.moc"
