// A DM cluster in the main window, offscreen, against a stand-in dm-master that answers from a scenario
// and checks every exchange against DM's OpenAPI document: the Add DM cluster dialog keeps OK disabled
// while the entry cannot work, naming why; the overview shows each task and, under it, each source's
// subtask with its stage, lag, error and blocking DDL; a command asks first (saying what is sent), is
// audited and sent; a declined one sends nothing; a subtask opens in the task view; a cluster that goes
// away is lost with when it was last seen. Screenshots at 1280x800 for review.
#include <QtTest>

#include <QDialogButtonBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>

#include "engine/dmcluster/dm_task_channel.h"
#include "tests/support/dm_scenario_server.h"
#include "tests/support/test_env.h"
#include "ui/engine/engine_adapter.h"
#include "ui/fleet/dm_command.h"
#include "ui/fleet/fleet_model.h"
#include "ui/main/fleet_controller.h"
#include "ui/main/main_window.h"
#include "ui/overview/channel_dialogs.h"
#include "ui/overview/overview_page.h"

using namespace syncscope::ui;

namespace {

constexpr int kWidth = 1280;
constexpr int kHeight = 800;
constexpr int kWaitMs = 20000;

QString screenshotPath(const char* name) {
    return QString::fromStdString(syncscope::test::outputDir("ui")) + "/" + name;
}

int rowLabelled(const FleetModel& model, const QString& label) {
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.rowAt(row).label == label) {
            return row;
        }
    }
    return -1;
}

}  // namespace

class DmClusterOverviewTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::unique_ptr<syncscope::test::DmScenarioServer> server_;
    int checked_ = 0;

    syncscope::test::DmScenarioServer& serve(const char* scenario) {
        server_ = std::make_unique<syncscope::test::DmScenarioServer>(
            syncscope::test::dmScenario(QString::fromLatin1(scenario)),
            dir_.filePath(QStringLiteral("exchanges.jsonl")));
        QString error;
        if (!server_->start(&error)) {
            qFatal("%s", qPrintable(error));
        }
        qInfo("%s", qPrintable(server_->announcement()));
        return *server_;
    }

    ChannelSpec clusterSpec() const {
        ChannelSpec spec;
        spec.kind = ChannelKind::DmCluster;
        spec.masterUrls = {server_->url()};
        spec.auditPath = dir_.filePath(QStringLiteral("dm-audit.jsonl"));
        return spec;
    }

    void openCluster(MainWindow& window) {
        window.resize(kWidth, kHeight);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.fleetController()->addChannel(clusterSpec());
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                window.fleetController()->refresh();
                return window.fleetController()->model()->rowCount() == 7 &&
                       !window.fleetController()->model()->rowAt(0).lost;
            }(),
            kWaitMs);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QCoreApplication::setOrganizationName(QStringLiteral("SyncScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_dm_cluster_overview"));
        QSettings().clear();
    }

    // Every exchange was checked against DM's document and broke none of it.
    void cleanup() {
        if (!server_) {
            return;
        }
        server_->stop();
        if (!server_->validating()) {
            qWarning("NOT CHECKED AGAINST DM'S OPENAPI DOCUMENT: %s", qPrintable(server_->announcement()));
        }
        for (const auto& exchange : server_->exchanges()) {
            checked_ += exchange.checked ? 1 : 0;
            QVERIFY2(exchange.violations.isEmpty(), qPrintable(exchange.violations.join(QLatin1Char('\n'))));
        }
        server_.reset();
        QFile::remove(dir_.filePath(QStringLiteral("exchanges.jsonl")));
    }

    void cleanupTestCase() { qInfo("exchanges checked against DM's OpenAPI document: %d", checked_); }

    void theDialogKeepsOkDisabledWhileTheEntryCannotWork() {
        AddDmClusterDialog dialog;
        dialog.show();
        QPushButton* ok = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
        QVERIFY(!ok->isEnabled());
        QVERIFY2(dialog.problemLabel()->text().contains(QStringLiteral("at least one dm-master")),
                 qPrintable(dialog.problemLabel()->text()));
        dialog.mastersEdit()->setText(QStringLiteral("10.0.0.1"));
        QVERIFY(!ok->isEnabled());
        QVERIFY2(dialog.problemLabel()->text().contains(QStringLiteral("'10.0.0.1'")),
                 qPrintable(dialog.problemLabel()->text()));
        dialog.mastersEdit()->setText(QStringLiteral("http://10.0.0.1:8261, 10.0.0.2:8261"));
        dialog.caEdit()->setText(QStringLiteral("/nonexistent/ca.pem"));
        QVERIFY(!ok->isEnabled());
        QVERIFY2(dialog.problemLabel()->text().contains(QStringLiteral("/nonexistent/ca.pem")),
                 qPrintable(dialog.problemLabel()->text()));
        dialog.caEdit()->clear();
        dialog.downstreamEdit()->setText(QStringLiteral("tidb.example.com"));
        QVERIFY(!ok->isEnabled());
        QVERIFY2(dialog.problemLabel()->text().contains(QStringLiteral("'tidb.example.com' is not HOST:PORT")),
                 qPrintable(dialog.problemLabel()->text()));
        dialog.downstreamEdit()->setText(QStringLiteral("tidb.example.com:4000"));
        QVERIFY2(dialog.problemLabel()->text().contains(QStringLiteral("needs the user")),
                 qPrintable(dialog.problemLabel()->text()));
        dialog.userEdit()->setText(QStringLiteral("dm_reader"));
        dialog.passwordFileEdit()->setText(QStringLiteral("/nonexistent/password"));
        QVERIFY2(dialog.problemLabel()->text().contains(QStringLiteral("/nonexistent/password")),
                 qPrintable(dialog.problemLabel()->text()));
        dialog.passwordFileEdit()->clear();
        QVERIFY2(ok->isEnabled(), qPrintable(dialog.problemLabel()->text()));
        QCOMPARE(dialog.spec().downstreamAddress, QStringLiteral("tidb.example.com:4000"));
        QCOMPARE(dialog.spec().masterUrls,
                 (QStringList{QStringLiteral("http://10.0.0.1:8261"), QStringLiteral("10.0.0.2:8261")}));
        QCOMPARE(dialog.spec().title(), QStringLiteral("DM 10.0.0.1:8261 (+1)"));
        // The workspace keeps it as it was typed.
        QString error;
        auto again = ChannelSpec::fromJson(dialog.spec().toJson(), &error);
        QVERIFY2(again, qPrintable(error));
        QCOMPARE(again->masterUrls, dialog.spec().masterUrls);
        QCOMPARE(again->key(), dialog.spec().key());
        QVERIFY(dialog.grab().save(screenshotPath("dm_cluster_dialog.png")));
    }

    void theOverviewShowsEachTaskAndItsSubtasks() {
        serve("error_and_ddl.json");
        MainWindow window;
        openCluster(window);
        const FleetModel& fleet = *window.fleetController()->model();
        QCOMPARE(fleet.rowAt(0).label, QStringLiteral("shop"));
        QCOMPARE(fleet.rowAt(1).label, QStringLiteral("shop / mysql-01 on worker-1"));
        QCOMPARE(fleet.rowAt(0).kind, ChannelKind::DmCluster);
        QCOMPARE(fleet.index(0, FleetModel::KindColumn).data().toString(), QStringLiteral("DM cluster"));
        QCOMPARE(fleet.rowAt(0).host, server_->url());
        const int billing = rowLabelled(fleet, QStringLiteral("billing / mysql-01 on worker-1"));
        QVERIFY(billing >= 0);
        QCOMPARE(fleet.rowAt(billing).stage, QStringLiteral("Error"));
        QCOMPARE(fleet.rowAt(billing).lagSeconds, 95.0);
        QVERIFY2(fleet.rowAt(billing).lastError.contains(QStringLiteral("blocking DDL: ALTER TABLE")),
                 qPrintable(fleet.rowAt(billing).lastError));
        const QString tip = fleet.index(billing, FleetModel::StageColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("unit sync on worker-1")), qPrintable(tip));
        QCOMPARE(dmCommandsOf(fleet.rowAt(billing)).size(), 4);
        QCOMPARE(dmCommandsOf(fleet.rowAt(0)).size(), 2);
        window.overview()->table()->sortByColumn(FleetModel::ChannelColumn, Qt::AscendingOrder);
        QTest::qWait(50);
        QVERIFY(window.grab().save(screenshotPath("overview_dm_cluster.png")));

        // A subtask opens in the same task view as a local task.
        window.fleetController()->openChannel(billing);
        QVERIFY(!window.overviewShown());
        QTRY_VERIFY_WITH_TIMEOUT(window.adapter()->lastSnapshot() != nullptr, kWaitMs);
        QVERIFY(window.grab().save(screenshotPath("task_view_dm_subtask.png")));
        window.showOverview();
    }

    void aCommandAsksFirstSaysWhatIsSentAndIsAudited() {
        serve("three_tasks.json");
        MainWindow window;
        openCluster(window);
        QString asked;
        bool answer = false;
        window.fleetController()->setBatchConfirmer([&](const QString& text) {
            asked = text;
            return answer;
        });
        const int row = rowLabelled(*window.fleetController()->model(), QStringLiteral("shop / mysql-01 on worker-1"));
        QVERIFY(row >= 0);
        auto posts = [this] {
            int count = 0;
            for (const auto& exchange : server_->exchanges()) {
                count += exchange.request.startsWith(QStringLiteral("POST")) ? 1 : 0;
            }
            return count;
        };
        emit window.overview()->dmCommandRequested(row, DmCommand::Stop);  // declined: nothing sent
        QVERIFY2(asked.contains(QStringLiteral(R"(POST /api/v1/tasks/shop/stop {"source_name_list":["mysql-01"]})")),
                 qPrintable(asked));
        QVERIFY2(asked.contains(QStringLiteral("dm-audit.jsonl")), qPrintable(asked));
        QTest::qWait(300);
        QCOMPARE(posts(), 0);

        answer = true;
        emit window.overview()->dmCommandRequested(row, DmCommand::Stop);
        QTRY_COMPARE_WITH_TIMEOUT(posts(), 1, kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                window.fleetController()->refresh();
                return window.fleetController()->model()->rowAt(row).stage == QStringLiteral("Stopped");
            }(),
            kWaitMs);
        QFile audit(dir_.filePath(QStringLiteral("dm-audit.jsonl")));
        QVERIFY(audit.open(QIODevice::ReadOnly));
        QVERIFY(QString::fromUtf8(audit.readAll()).contains(QStringLiteral("\"action\":\"dm stop\"")));

        // The whole task's row offers no source command.
        emit window.overview()->dmCommandRequested(0, DmCommand::DisableSource);
        QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("Nothing sent: shop is a whole task")),
                 qPrintable(window.statusBar()->currentMessage()));
        QTest::qWait(300);
        QCOMPARE(posts(), 1);
    }

    void aClusterThatGoesAwayIsLostWithWhenItWasLastSeen() {
        serve("three_tasks.json");
        MainWindow window;
        openCluster(window);
        server_->stop();
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                window.fleetController()->refresh();
                return window.fleetController()->model()->rowAt(1).lost;
            }(),
            kWaitMs);
        const FleetModel::Row& lost = window.fleetController()->model()->rowAt(1);
        QCOMPARE(lost.stage, QStringLiteral("Lost"));
        QVERIFY2(lost.lastError.contains(QStringLiteral("last seen")) &&
                     lost.lastError.contains(QStringLiteral("no dm-master answers there")),
                 qPrintable(lost.lastError));
        QVERIFY(window.fleetController()->model()->index(1, FleetModel::LagColumn).data().toString().isEmpty());
        window.overview()->table()->sortByColumn(FleetModel::ChannelColumn, Qt::AscendingOrder);
        QTest::qWait(50);
        QVERIFY(window.grab().save(screenshotPath("overview_dm_cluster_lost.png")));
    }
};

QTEST_MAIN(DmClusterOverviewTest)
#include "test_dm_cluster_overview.moc"
