// The fleet without widgets: the overview model (one row per channel, numeric sorting, the filter and
// "only problems" through the proxy, changed rows as runs of dataChanged (over the lag and rows/s columns when only
// they moved), a channel set change as one
// reset, all under QAbstractItemModelTester), a lost or unopenable entry shown as such, the workspace
// saved and read back (QSettings and file, a bad entry named and the others kept, no typed password
// saved), notifications debounced, and the batch plan with its one confirmation text.
#include <QtTest>

#include <QAbstractItemModelTester>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>

#include <atomic>

#include "tests/support/test_env.h"
#include "tests/ui/support/release_watching_task.h"
#include "tests/ui/support/simulated_task.h"
#include "ui/fleet/batch_plan.h"
#include "ui/fleet/fleet_filter_proxy.h"
#include "ui/fleet/fleet_model.h"
#include "ui/fleet/notification_center.h"
#include "ui/fleet/workspace.h"

using namespace syncscope::ui;
using syncscope::test::ReleaseWatchingTask;
using syncscope::test::SimulatedTask;

namespace {

ChannelSpec localSpec(const QString& name) {
    ChannelSpec spec;
    spec.kind = ChannelKind::LocalTask;
    spec.taskPath = QStringLiteral("/tasks/%1.yaml").arg(name);
    spec.sourcePath = QStringLiteral("/tasks/%1-source.yaml").arg(name);
    spec.lagThresholdSeconds = 30;
    return spec;
}

ChannelSpec remoteSpec(int port) {
    ChannelSpec spec;
    spec.kind = ChannelKind::RemoteEngine;
    spec.host = QStringLiteral("127.0.0.1");
    spec.port = port;
    return spec;
}

QStringList column(const QAbstractItemModel& model, int columnIndex) {
    QStringList values;
    for (int row = 0; row < model.rowCount(); ++row) {
        values << model.index(row, columnIndex).data().toString();
    }
    return values;
}

}  // namespace

class FleetModelTest : public QObject {
    Q_OBJECT

private:
    // Three local tasks: one running fast, one running with a table ahead, one failed.
    std::vector<std::shared_ptr<SimulatedTask>> fillFleet(FleetModel& model) {
        std::vector<std::shared_ptr<SimulatedTask>> tasks;
        for (const char* name : {"orders", "billing", "audit"}) {
            auto task = std::make_shared<SimulatedTask>(3);
            task->start();
            model.addGroup(localTaskGroup(localSpec(QString::fromLatin1(name)), task));
            tasks.push_back(task);
        }
        tasks[0]->advance(100000, 900);
        tasks[1]->advance(1000, 5);
        tasks[1]->flush();
        tasks[1]->putTableAhead(1, 500, 3);
        tasks[2]->fail(SimulatedTask::missingColumnEvent());
        return tasks;
    }

private slots:
    // A snapshot with thousands of table points cost the GUI thread most of a fleet tick to free (bench_gui_fleet).
    void aReplacedSnapshotIsFreedOffTheGuiThread() {
        auto task = std::make_shared<ReleaseWatchingTask>();
        FleetModel model;
        model.addGroup(localTaskGroup(localSpec(QStringLiteral("watched")), task));
        model.refresh();      // the row holds the first snapshot
        task->publishNext();  // the engine lets go of it: the row holds the last reference
        model.refresh();      // the row takes the second one
        QTRY_VERIFY(task->freedOn() != nullptr);
        QVERIFY(task->freedOn() != QThread::currentThread());
    }

    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("SyncScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_fleet_model"));
    }

    void rowsSortNumericallyAndFilterUnderTheModelTester() {
        FleetModel model;
        FleetFilterProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester sourceTester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        auto tasks = fillFleet(model);
        QCOMPARE(model.refresh().reset, true);
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(column(model, FleetModel::ChannelColumn), (QStringList{"orders.yaml", "billing.yaml", "audit.yaml"}));
        QCOMPARE(column(model, FleetModel::StageColumn), (QStringList{"Running", "Running", "Error"}));
        QCOMPARE(model.rowAt(1).anomalies, 1);
        QCOMPARE(model.rowAt(1).health, ChannelHealth::Warning);
        QCOMPARE(model.worstHealth(), ChannelHealth::Failed);

        // Worst first: failed, then flagged, then healthy (the stage sorts by health, not by its text).
        proxy.sort(FleetModel::StageColumn, Qt::DescendingOrder);
        QCOMPARE(column(proxy, FleetModel::ChannelColumn), (QStringList{"audit.yaml", "billing.yaml", "orders.yaml"}));
        proxy.sort(FleetModel::AnomaliesColumn, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, FleetModel::ChannelColumn).data().toString(), QStringLiteral("billing.yaml"));

        proxy.setText(QStringLiteral("bill"));
        QCOMPARE(proxy.rowCount(), 1);
        proxy.setText(QStringLiteral("unknown column"));  // matches the failed task's last error
        QCOMPARE(column(proxy, FleetModel::ChannelColumn), QStringList{"audit.yaml"});
        proxy.setText({});
        proxy.setOnlyProblems(true);
        QCOMPARE(proxy.rowCount(), 2);
        proxy.setOnlyProblems(false);
        QCOMPARE(proxy.rowCount(), 3);
    }

    void onlyChangedRowsAreAnnouncedAndANewChannelIsOneReset() {
        FleetModel model;
        auto tasks = fillFleet(model);
        model.refresh();
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        FleetModel::RefreshResult result = model.refresh();
        QCOMPARE(result.changedRows, 0);
        QCOMPARE(changed.count(), 0);

        tasks[2]->fixCause();
        tasks[2]->resume();
        result = model.refresh();
        QCOMPARE(result.changedRows, 1);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toModelIndex().row(), 2);
        QCOMPARE(model.rowAt(2).stage, QStringLiteral("Running"));

        model.addGroup(localTaskGroup(localSpec(QStringLiteral("late")), std::make_shared<SimulatedTask>(1)));
        QVERIFY(model.refresh().reset);
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.rowCount(), 4);
        model.removeGroup(0);
        QCOMPARE(model.rowCount(), 0);  // reset at once; the next refresh shows the rest
        model.refresh();
        QCOMPARE(model.rowCount(), 3);
    }

    // A running fleet's lag and rows/s move on every tick: only those two columns are announced (the view repaints
    // only them), while a change of stage announces the whole row (its colours, the filter's text).
    void liveFiguresAloneAnnounceTheirColumnsOnly() {
        FleetModel model;
        auto tasks = fillFleet(model);
        model.refresh();
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        tasks[0]->advance(50000, 300);
        tasks[1]->advance(80000, 700);
        FleetModel::RefreshResult result = model.refresh();
        QCOMPARE(result.changedRows, 2);
        QCOMPARE(changed.count(), 1);  // rows 0 and 1, one run
        QCOMPARE(changed.at(0).at(0).toModelIndex().row(), 0);
        QCOMPARE(changed.at(0).at(1).toModelIndex().row(), 1);
        QCOMPARE(changed.at(0).at(0).toModelIndex().column(), int(FleetModel::LagColumn));
        QCOMPARE(changed.at(0).at(1).toModelIndex().column(), int(FleetModel::RowsPerSecondColumn));

        changed.clear();
        tasks[0]->advance(60000, 400);  // other figures than the last tick's
        tasks[1]->pause();
        result = model.refresh();
        QCOMPARE(result.changedRows, 2);
        QCOMPARE(changed.count(), 2);  // two kinds of change: two runs
        QCOMPARE(changed.at(0).at(0).toModelIndex().column(), int(FleetModel::LagColumn));
        QCOMPARE(changed.at(1).at(0).toModelIndex().row(), 1);
        QCOMPARE(changed.at(1).at(0).toModelIndex().column(), 0);
        QCOMPARE(changed.at(1).at(1).toModelIndex().column(), int(FleetModel::ColumnCount) - 1);
        // The filter's text leaves the live figures out: they change without the row being announced.
        const QString searched = model.index(0, 0).data(FleetModel::SearchRole).toString();
        QVERIFY2(!searched.contains(model.index(0, FleetModel::LagColumn).data().toString()), qPrintable(searched));
    }

    void anUnreachableRemoteEngineIsShownLostAndTheOthersStay() {
        FleetModel model;
        auto tasks = fillFleet(model);
        model.addGroup(openChannelGroup(remoteSpec(syncscope::test::freeLoopbackPort()), {}));
        ChannelSpec badToken = remoteSpec(1);
        badToken.tokenFile = QStringLiteral("/nonexistent/token");
        model.addGroup(openChannelGroup(badToken, {}));
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                model.refresh();
                return model.rowCount() == 5 && model.rowAt(3).lost && !model.rowAt(3).lastError.isEmpty() &&
                       model.rowAt(3).lastError.contains(QStringLiteral("never reached"));
            }(),
            10000);
        QCOMPARE(model.rowAt(3).stage, QStringLiteral("Lost"));
        QCOMPARE(model.rowAt(3).health, ChannelHealth::Failed);
        QVERIFY2(model.rowAt(4).lastError.contains(QStringLiteral("/nonexistent/token")),
                 qPrintable(model.rowAt(4).lastError));
        QCOMPARE(model.rowAt(0).stage, QStringLiteral("Running"));
        // A local task without an opener is one row saying why.
        model.addGroup(openChannelGroup(localSpec(QStringLiteral("x")), {}));
        model.refresh();
        QVERIFY(!model.rowAt(5).lastError.isEmpty());
    }

    void workspaceIsSavedAndReadBackWithoutTypedPasswords() {
        ChannelSpec replica;
        replica.kind = ChannelKind::NativeReplica;
        replica.host = QStringLiteral("10.0.0.7");
        replica.port = 3306;
        replica.user = QStringLiteral("monitor");
        replica.password = QStringLiteral("typed-secret");
        replica.passwordFile = QStringLiteral("/etc/syncscope/replica.pass");
        ChannelSpec remote = remoteSpec(8261);
        remote.tls = true;
        remote.caFile = QStringLiteral("/etc/syncscope/ca.pem");
        remote.tokenFile = QStringLiteral("/etc/syncscope/token");
        const QList<ChannelSpec> saved{localSpec(QStringLiteral("orders")), remote, replica};
        QVERIFY(!workspaceJson(saved).contains("typed-secret"));

        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("desk.syncscope.json"));
        QString error;
        QVERIFY2(saveWorkspaceFile(path, saved, &error), qPrintable(error));
        QStringList problems;
        QList<ChannelSpec> read = loadWorkspaceFile(path, &problems);
        QVERIFY(problems.isEmpty());
        QCOMPARE(read.size(), 3);
        QCOMPARE(read[0].key(), saved[0].key());
        QCOMPARE(read[0].lagThresholdSeconds, 30.0);
        QVERIFY(read[1].tls);
        QCOMPARE(read[1].caFile, remote.caFile);
        QCOMPARE(read[2].passwordFile, replica.passwordFile);
        QVERIFY(read[2].password.isEmpty());

        QSettings settings;
        saveWorkspace(settings, saved);
        QCOMPARE(loadWorkspace(settings, &problems).size(), 3);

        // One bad entry is named; the others are kept.
        QByteArray text = workspaceJson(saved);
        text.replace("\"remote-engine\"", "\"teleporter\"");
        QList<ChannelSpec> partly = channelsFromWorkspaceJson(text, &problems);
        QCOMPARE(partly.size(), 2);
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems.front().contains(QStringLiteral("teleporter")), qPrintable(problems.front()));
        problems.clear();
        QVERIFY(channelsFromWorkspaceJson("not json", &problems).isEmpty());
        QCOMPARE(problems.size(), 1);
    }

    void notificationsAreDebouncedAndNotRepeated() {
        FleetModel model;
        auto tasks = fillFleet(model);
        model.refresh();
        NotificationCenter center;
        QSignalSpy notified(&center, &NotificationCenter::notified);
        const QDateTime t0 = QDateTime::currentDateTime();
        center.observe(model, t0);
        QCOMPARE(notified.count(), 0);  // a condition must hold kHoldSeconds first
        center.observe(model, t0.addSecs(NotificationCenter::kHoldSeconds));
        // The failed task and the flagged table: one notification each.
        QCOMPARE(notified.count(), 2);
        QCOMPARE(center.log()->rowCount(), 2);
        center.observe(model, t0.addSecs(NotificationCenter::kHoldSeconds + 10));
        QCOMPARE(notified.count(), 2);  // announced once while it holds

        // It clears and comes back at once: not repeated before kRepeatSeconds.
        tasks[2]->fixCause();
        tasks[2]->resume();
        model.refresh();
        center.observe(model, t0.addSecs(20));
        tasks[2]->fail(SimulatedTask::missingColumnEvent());
        model.refresh();
        center.observe(model, t0.addSecs(30));
        center.observe(model, t0.addSecs(40));
        QCOMPARE(notified.count(), 2);
        center.observe(model, t0.addSecs(20 + NotificationCenter::kRepeatSeconds));
        QCOMPARE(notified.count(), 3);
        const Notification last = notified.last().at(0).value<Notification>();
        QCOMPARE(last.channel, QStringLiteral("audit.yaml"));
        QCOMPARE(last.kind, NotificationKind::Failed);
    }

    void aChannelWithNotificationsOffStaysQuiet() {
        FleetModel model;
        ChannelSpec quiet = localSpec(QStringLiteral("quiet"));
        quiet.notify = false;
        auto task = std::make_shared<SimulatedTask>(1);
        task->start();
        task->fail(SimulatedTask::missingColumnEvent());
        model.addGroup(localTaskGroup(quiet, task));
        model.refresh();
        NotificationCenter center;
        QSignalSpy notified(&center, &NotificationCenter::notified);
        const QDateTime t0 = QDateTime::currentDateTime();
        center.observe(model, t0);
        center.observe(model, t0.addSecs(60));
        QCOMPARE(notified.count(), 0);
    }

    void batchPlanListsWhatHappensAndRunsOnlyThat() {
        FleetModel model;
        auto tasks = fillFleet(model);
        tasks[1]->pause();
        model.refresh();
        BatchPlan pause = planBatch(model, BatchCommand::Pause, {0, 1, 2});
        QCOMPARE(pause.runCount(), 1);
        const QString text = confirmationText(pause);
        QVERIFY2(text.contains(QStringLiteral("Pause 1 of the 3 selected")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("orders.yaml (local task, Running): pause")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("billing.yaml (local task, Paused): left alone: not running")),
                 qPrintable(text));

        BatchPlan resume = planBatch(model, BatchCommand::Resume, {0, 1, 2});
        QCOMPARE(resume.runCount(), 2);
        BatchRunner runner;
        QSignalSpy finished(&runner, &BatchRunner::finished);
        runner.run(resume);
        QVERIFY(finished.wait(5000));
        // billing resumes; audit's cause is not fixed, so its retry is accepted and fails again.
        QCOMPARE(tasks[1]->stage(), syncscope::task::Stage::Running);
        QCOMPARE(tasks[0]->stage(), syncscope::task::Stage::Running);
    }
};

QTEST_MAIN(FleetModelTest)
#include "test_fleet_model.moc"
