// A DM cluster's subtask in the task view, with its checkpoint table read from the test pair's downstream
// (DM's shape) and its status from a stand-in dm-master: the table point ahead of the global point is
// flagged in the table checkpoints page and counted on the overview, as for a local task. Screenshots at
// 1280x800 for review.
#include <QtTest>

#include <QSettings>

#include "tests/support/dm_meta_tables.h"
#include "tests/support/dm_scenario_server.h"
#include "tests/support/test_env.h"
#include "ui/engine/engine_adapter.h"
#include "ui/fleet/fleet_model.h"
#include "ui/main/fleet_controller.h"
#include "ui/main/main_window.h"

using namespace syncscope::ui;

namespace {

constexpr int kWidth = 1280;
constexpr int kHeight = 800;
constexpr int kWaitMs = 30000;
const char* const kMeta = "dm_meta_cluster_test";

QString screenshotPath(const char* name) {
    return QString::fromStdString(syncscope::test::outputDir("ui")) + "/" + name;
}

}  // namespace

class DmClusterTaskViewTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("SyncScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_dm_cluster_task_view"));
        QSettings().clear();
        syncscope::test::writeDmShopCheckpoints(kMeta);
    }

    void cleanupTestCase() { syncscope::test::dropDmMetaSchema(kMeta); }

    void aSubtaskShowsItsTableCheckpointsWithTheAheadOfGlobalFlag() {
        QTemporaryDir dir;
        syncscope::test::DmScenarioServer server(syncscope::test::dmScenario(QStringLiteral("dm_meta_task.json")),
                                                 dir.filePath(QStringLiteral("exchanges.jsonl")));
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        const syncscope::test::ServerSettings root = syncscope::test::downstreamRoot();
        ChannelSpec spec;
        spec.kind = ChannelKind::DmCluster;
        spec.masterUrls = {server.url()};
        spec.user = QString::fromStdString(root.user);
        spec.password = QString::fromStdString(root.password);
        spec.downstreamAddress = QStringLiteral("%1:%2").arg(QString::fromStdString(root.host)).arg(root.port);
        spec.auditPath = dir.filePath(QStringLiteral("audit.jsonl"));
        QVERIFY2(spec.inputProblem().isEmpty(), qPrintable(spec.inputProblem()));

        MainWindow window;
        window.resize(kWidth, kHeight);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.fleetController()->addChannel(spec);
        int row = -1;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                window.fleetController()->refresh();
                for (int i = 0; i < window.fleetController()->model()->rowCount(); ++i) {
                    if (window.fleetController()->model()->rowAt(i).label ==
                        QStringLiteral("shop / mysql-01 on worker-1")) {
                        row = i;
                    }
                }
                return row >= 0 && window.fleetController()->model()->rowAt(row).anomalies == 1;
            }(),
            kWaitMs);
        QVERIFY(window.grab().save(screenshotPath("overview_dm_cluster_flagged.png")));

        window.fleetController()->openChannel(row);
        QTRY_VERIFY_WITH_TIMEOUT(
            window.adapter()->lastSnapshot() && window.adapter()->lastSnapshot()->tables.size() == 2, kWaitMs);
        QTest::qWait(500);
        QVERIFY(window.grab().save(screenshotPath("task_view_dm_checkpoints.png")));
        for (const auto& exchange : server.exchanges()) {
            QVERIFY2(exchange.violations.isEmpty(), qPrintable(exchange.violations.join(QLatin1Char('\n'))));
        }
    }
};

QTEST_MAIN(DmClusterTaskViewTest)
#include "test_dm_cluster_task_view.moc"
