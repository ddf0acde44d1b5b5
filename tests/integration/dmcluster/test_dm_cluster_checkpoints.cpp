// A DM task's checkpoint table on a real downstream (DM's shape, written here as DM writes it), read beside
// the cluster's OpenAPI (a stand-in dm-master): the subtask's persisted global point and table points, a
// table point ahead of the global point flagged as the inspection flags it, the other source's rows not
// mixed in; and a downstream that refuses the user named on the subtask, without its password.
#include <QTemporaryDir>
#include <QtTest>

#include "engine/dmcluster/dm_cluster.h"
#include "engine/dmcluster/dm_task_channel.h"
#include "tests/support/dm_meta_tables.h"
#include "tests/support/dm_scenario_server.h"
#include "tests/support/test_env.h"

using namespace syncscope;
using namespace syncscope::dmcluster;

namespace {

constexpr int kWaitMs = 30000;
constexpr std::chrono::milliseconds kFastPoll{200};
const char* const kMeta = "dm_meta_cluster_test";

}  // namespace

class DmClusterCheckpointsTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

    DmClusterOptions options(const QString& url) {
        DmClusterOptions options;
        options.masterUrls = {url.toStdString()};
        options.pollInterval = kFastPoll;
        return options;
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        test::writeDmShopCheckpoints(kMeta);
    }

    void cleanupTestCase() { test::dropDmMetaSchema(kMeta); }

    void aSubtaskShowsItsPersistedPointsAndTheTableAheadOfTheGlobalPoint() {
        test::DmScenarioServer server(test::dmScenario(QStringLiteral("dm_meta_task.json")),
                                      dir_.filePath(QStringLiteral("exchanges.jsonl")));
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        DownstreamAccess access;
        access.server = test::downstreamRootSettings();
        access.overrideAddress = true;  // the scenario's target_config is DM's address, not the test's
        access.interval = kFastPoll;
        auto cluster = std::make_shared<DmCluster>(options(server.url()), access);
        DmTaskChannel subtask(cluster, "shop", "mysql-01");
        QVERIFY2(test::waitFor([&] { return subtask.status()->tables.size() == 2; }, kWaitMs),
                 subtask.status()->stageReason.c_str());
        auto status = subtask.status();
        QCOMPARE(status->globalPersisted.text(), std::string("mysql-bin.000012:40000"));
        QCOMPARE(status->exitSafe.text(), std::string("mysql-bin.000012:47990"));
        QVERIFY(status->globalPersisted.axis.has_value());
        bool ordersAhead = false;
        bool itemsAhead = true;
        for (const auto& table : status->tables) {
            if (table.table == "orders") {
                ordersAhead = table.aheadOfGlobal;
                QCOMPARE(table.persisted.text(), std::string("mysql-bin.000012:47990"));
            }
            if (table.table == "items") {
                itemsAhead = table.aheadOfGlobal;
            }
        }
        QVERIFY(ordersAhead);
        QVERIFY(!itemsAhead);
        auto other = DmTaskChannel(cluster, "shop", "mysql-02").status();
        QCOMPARE(other->tables.size(), size_t(1));
        QCOMPARE(other->globalPersisted.text(), std::string("mysql-bin.000007:9120"));
        for (const auto& exchange : server.exchanges()) {
            QVERIFY2(exchange.violations.isEmpty(), qPrintable(exchange.violations.join(QLatin1Char('\n'))));
        }
    }

    void aDownstreamThatRefusesTheUserIsNamedWithoutThePassword() {
        test::DmScenarioServer server(test::dmScenario(QStringLiteral("dm_meta_task.json")),
                                      dir_.filePath(QStringLiteral("exchanges-refused.jsonl")));
        QString error;
        QVERIFY2(server.start(&error), qPrintable(error));
        DownstreamAccess access;
        access.server = test::downstreamRootSettings();
        access.server.user = "no_such_dm_reader";
        access.server.password = "wrong-dm-reader-secret";
        access.overrideAddress = true;
        access.interval = kFastPoll;
        auto cluster = std::make_shared<DmCluster>(options(server.url()), access);
        DmTaskChannel subtask(cluster, "shop", "mysql-01");
        QVERIFY(test::waitFor(
            [&] { return subtask.status()->stageReason.find("checkpoint tables:") != std::string::npos; }, kWaitMs));
        auto status = subtask.status();
        QVERIFY2(status->stageReason.find("no_such_dm_reader@") != std::string::npos, status->stageReason.c_str());
        QVERIFY(status->stageReason.find("wrong-dm-reader-secret") == std::string::npos);
        QCOMPARE(status->stage, task::Stage::Running);  // the task itself is fine
        QVERIFY(status->tables.empty());
    }
};

QTEST_GUILESS_MAIN(DmClusterCheckpointsTest)
#include "test_dm_cluster_checkpoints.moc"
