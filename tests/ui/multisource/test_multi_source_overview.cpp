// A DM task with two sources in the GUI, offscreen (issue 14): attached to the main window as the GUI opens
// one, the overview shows the whole task's row with one row per source's subtask under it. A source paused
// from its row stops only that source (its row Paused, the other source and the whole task Running, the
// other's rows still arriving); resumed, both tables equal; the whole task's row pauses every source.
#include <QtTest>

#include <QApplication>
#include <QTableView>
#include <QTemporaryDir>

#include <filesystem>
#include <fstream>

#include "engine/multisource/multi_source_plan.h"
#include "engine/multisource/multi_source_task.h"
#include "engine/source/upstream_connection.h"
#include "tests/support/test_env.h"
#include "ui/engine/engine_adapter.h"
#include "ui/fleet/fleet_model.h"
#include "ui/fleet/multi_source_group.h"
#include "ui/main/fleet_controller.h"
#include "ui/main/main_window.h"
#include "ui/overview/overview_page.h"

using namespace syncscope;
using namespace syncscope::ui;
using source::UpstreamConnection;

namespace {

constexpr int kWaitMs = 60000;
constexpr int kWidth = 1280;
constexpr int kHeight = 800;
constexpr int kRows = 300;
const char* const kTaskName = "msgui";

std::string valueOf(UpstreamConnection& server, const std::string& sql) {
    try {
        return server.queryValue(sql).value_or("NULL");
    } catch (const std::exception& e) {
        return std::string("ERROR: ") + e.what();
    }
}

QString describe(const FleetModel& model) {
    QString text;
    for (int row = 0; row < model.rowCount(); ++row) {
        const FleetModel::Row& r = model.rowAt(row);
        text += QStringLiteral("%1 [%2] %3\n").arg(r.label, r.stage, r.lastError);
    }
    return text;
}

}  // namespace

class MultiSourceOverviewTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    int nextId_ = 1;

    std::string writeFiles(QStringList* sources) {
        auto up = test::upstreamReplication();
        auto down = test::downstreamRoot();
        auto master = up_->query("SHOW MASTER STATUS");
        const std::string dir = dir_.path().toStdString();
        std::ofstream task(dir + "/" + kTaskName + ".yaml");
        task << "name: " << kTaskName << "\ntask-mode: incremental\n"
             << "target-database: {host: \"127.0.0.1\", port: " << down.port << ", user: \"" << down.user
             << "\", password: \"" << down.password << "\"}\nmysql-instances:\n";
        for (const char* source : {"orders-eu", "orders-us"}) {
            task << "  - source-id: \"" << source << "\"\n"
                 << "    meta: {binlog-name: \"" << *master.front()[0] << "\", binlog-pos: " << *master.front()[1]
                 << "}\n    block-allow-list: \"" << source << "\"\n"
                 << "    syncer: {checkpoint-flush-interval: 1, worker-count: 2}\n";
            std::ofstream file(dir + "/" + source + ".yaml");
            file << "source-id: \"" << source << "\"\nflavor: mariadb\nenable-gtid: false\n"
                 << "from: {host: \"127.0.0.1\", port: " << up.port << ", user: \"" << up.user << "\", password: \""
                 << up.password << "\"}\n";
            sources->append(QString::fromStdString(dir + "/" + source + ".yaml"));
        }
        task << "block-allow-list:\n  orders-eu: {do-dbs: [\"msgui_eu\"]}\n  orders-us: {do-dbs: [\"msgui_us\"]}\n";
        return dir + "/" + kTaskName + ".yaml";
    }

    void insertRows(const std::string& database) {
        std::string sql = "INSERT INTO " + database + ".orders VALUES ";
        for (int i = 0; i < kRows; ++i) {
            sql += (i ? "," : "") + ("(" + std::to_string(nextId_++) + ", 'order')");
        }
        up_->execute(sql);
    }

    bool equal(const std::string& database) {
        const std::string sql = "SELECT COUNT(*) FROM " + database + ".orders";
        return valueOf(*up_, sql) == valueOf(*down_, sql);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        up_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::upstreamRoot()));
        down_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::downstreamRoot()));
        for (UpstreamConnection* server : {up_.get(), down_.get()}) {
            server->execute("SET SESSION sql_log_bin = 0");
            for (const char* database : {"msgui_eu", "msgui_us"}) {
                server->execute(std::string("DROP DATABASE IF EXISTS ") + database);
                server->execute(std::string("CREATE DATABASE ") + database);
                server->execute(std::string("CREATE TABLE ") + database +
                                ".orders (id INT PRIMARY KEY, v VARCHAR(20))");
            }
            server->execute("SET SESSION sql_log_bin = 1");
        }
        down_->execute("CREATE DATABASE IF NOT EXISTS dm_meta");
        down_->execute(std::string("DROP TABLE IF EXISTS dm_meta.`") + kTaskName + "_syncer_checkpoint`");
    }

    void subtasksAreRowsUnderTheirTaskAndPauseOnTheirOwn() {
        QStringList sources;
        const std::string taskFile = writeFiles(&sources);
        std::vector<std::string> sourceFiles;
        for (const QString& source : sources) {
            sourceFiles.push_back(source.toStdString());
        }
        multisource::MultiSourcePlan plan = multisource::loadMultiSourcePlan(taskFile, sourceFiles);
        auto task = std::make_shared<multisource::MultiSourceTask>(plan.subtasks);

        MainWindow window;
        window.resize(kWidth, kHeight);
        window.show();
        // As the GUI attaches a task it opened (File > Open task, or `syncscope TASK --source A --source B`).
        window.attachTask(task, {QString::fromStdString(taskFile), sourceField(sources), QString()});
        window.showOverview();
        window.fleetController()->refresh();
        FleetModel& fleet = *window.fleetController()->model();
        QCOMPARE(fleet.rowCount(), 3);
        QVERIFY2(fleet.rowAt(0).label.startsWith(QStringLiteral("msgui.yaml (2 sources)")),
                 qPrintable(describe(fleet)));
        QVERIFY2(fleet.rowAt(1).label.contains(QStringLiteral("source orders-eu")), qPrintable(describe(fleet)));
        QVERIFY2(fleet.rowAt(2).label.contains(QStringLiteral("source orders-us")), qPrintable(describe(fleet)));
        QCOMPARE(fleet.rowAt(0).task.get(), static_cast<task::TaskControl*>(task.get()));
        QCOMPARE(fleet.rowAt(2).task.get(), static_cast<task::TaskControl*>(task->subtask("orders-us")));

        QVERIFY(task->start().accepted);
        insertRows("msgui_eu");
        insertRows("msgui_us");
        QVERIFY(test::waitFor([&] { return equal("msgui_eu") && equal("msgui_us"); }, kWaitMs));

        // orders-us paused from its own row, as before its upstream's maintenance.
        QVERIFY(fleet.rowAt(2).task->pause().accepted);
        QVERIFY(test::waitFor(
            [&] {
                window.fleetController()->refresh();
                return fleet.rowAt(2).stage == QStringLiteral("Paused");
            },
            kWaitMs));
        const std::string usBefore = valueOf(*down_, "SELECT COUNT(*) FROM msgui_us.orders");
        insertRows("msgui_us");
        insertRows("msgui_eu");
        QVERIFY(test::waitFor([&] { return equal("msgui_eu"); }, kWaitMs));
        QVERIFY(test::waitFor(
            [&] {
                window.fleetController()->refresh();
                return fleet.rowAt(0).stage == QStringLiteral("Running") &&
                       fleet.rowAt(1).stage == QStringLiteral("Running") &&
                       fleet.rowAt(2).stage == QStringLiteral("Paused") && fleet.rowAt(0).snapshot &&
                       fleet.rowAt(0).snapshot->stageReason.find("source orders-us: Paused") != std::string::npos;
            },
            kWaitMs));
        QCOMPARE(valueOf(*down_, "SELECT COUNT(*) FROM msgui_us.orders"), usBefore);  // paused: nothing applied
        // Sorted by channel (the overview's order), the subtasks stay under their task's row.
        auto* page = window.findChild<OverviewPage*>();
        QVERIFY(page != nullptr);
        QAbstractItemModel* shown = page->table()->model();
        for (int row = 0; row < 3; ++row) {
            QCOMPARE(shown->index(row, FleetModel::ChannelColumn).data().toString(), fleet.rowAt(row).label);
        }
        QApplication::processEvents();
        const QString shot = QString::fromStdString(test::outputDir("ui")) + "/overview_multi_source.png";
        QVERIFY(window.grab().save(shot));
        qInfo("screenshot: %s", qPrintable(shot));

        // Double-click on the source's row: the task view shows that subtask (its own source and points).
        window.fleetController()->openChannel(2);
        QVERIFY(!window.overviewShown());
        QTRY_VERIFY_WITH_TIMEOUT(window.adapter()->lastSnapshot() &&
                                     window.adapter()->lastSnapshot()->sourceId == "orders-us" &&
                                     window.adapter()->lastSnapshot()->globalPersisted.known(),
                                 kWaitMs);
        window.showOverview();

        QVERIFY(fleet.rowAt(2).task->resume().accepted);
        QVERIFY(test::waitFor([&] { return equal("msgui_us"); }, kWaitMs));

        // The whole task's row pauses every source.
        QVERIFY(fleet.rowAt(0).task->pause().accepted);
        QVERIFY2(test::waitFor(
                     [&] {
                         window.fleetController()->refresh();
                         return fleet.rowAt(0).stage == QStringLiteral("Paused") &&
                                fleet.rowAt(1).stage == QStringLiteral("Paused") &&
                                fleet.rowAt(2).stage == QStringLiteral("Paused");
                     },
                     kWaitMs),
                 qPrintable(describe(fleet)));
        window.detachTask();
    }
};

QTEST_MAIN(MultiSourceOverviewTest)
#include "test_multi_source_overview.moc"
