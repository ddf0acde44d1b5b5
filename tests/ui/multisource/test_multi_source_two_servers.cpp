// A DM task whose two sources are on two different upstream servers, in the GUI offscreen (issue 14): the test pair's
// upstream and a third MariaDB server (tests/support/second_pair.h). Proves: the overview shows the whole task and
// both subtasks Running, both sources' rows equal downstream (count and CHECKSUM TABLE); the third server's source
// paused from the GUI (its overview row selected, Pause selected, the confirmation naming only that source) is
// Paused while the pair's source and the whole task keep running and applying, its rows held back; resumed from the
// GUI, everything written meanwhile arrives. Saves docs/screenshots/overview_two_servers.png (as the build's ui
// output; the README's copy was looked at).
#include <QtTest>

#include <QApplication>
#include <QItemSelectionModel>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>

#include "engine/multisource/multi_source_plan.h"
#include "engine/multisource/multi_source_task.h"
#include "engine/source/upstream_connection.h"
#include "tests/support/multi_source_files.h"
#include "tests/support/second_pair.h"
#include "tests/support/sql_values.h"
#include "tests/support/test_env.h"
#include "ui/fleet/fleet_model.h"
#include "ui/fleet/multi_source_group.h"
#include "ui/main/fleet_controller.h"
#include "ui/main/main_window.h"
#include "ui/overview/overview_page.h"

using namespace syncscope;
using namespace syncscope::ui;
using source::UpstreamConnection;
using test::checksumOf;
using test::valueOf;

namespace {

constexpr int kWaitMs = 60000;
constexpr int kWidth = 1280;
constexpr int kHeight = 800;
constexpr int kRows = 200;
const char* const kTaskName = "twoservers";
const char* const kPairSource = "pair-upstream";
const char* const kThirdSource = "third-server";
const char* const kPairDatabase = "ts_pair";
const char* const kThirdDatabase = "ts_third";
constexpr int kTaskRow = 0;
constexpr int kPairRow = 1;
constexpr int kThirdRow = 2;

QString describe(const FleetModel& model) {
    QString text;
    for (int row = 0; row < model.rowCount(); ++row) {
        const FleetModel::Row& r = model.rowAt(row);
        text += QStringLiteral("%1 [%2] %3 %4\n")
                    .arg(r.label, r.stage, r.lastError,
                         r.snapshot ? QString::fromStdString(r.snapshot->stageReason) : QString());
    }
    return text;
}

}  // namespace

class MultiSourceTwoServersTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    test::SecondPair secondPair_;
    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> third_;
    std::unique_ptr<UpstreamConnection> down_;
    int nextId_ = 1;

    void insertRows(UpstreamConnection& upstream, const std::string& database) {
        std::string sql = "INSERT INTO " + database + ".t VALUES ";
        for (int i = 0; i < kRows; ++i) {
            sql += (i ? "," : "") + ("(" + std::to_string(nextId_) + ", 'row " + std::to_string(nextId_) + "')");
            ++nextId_;
        }
        upstream.execute(sql);
    }

    bool equal(UpstreamConnection& upstream, const std::string& database) {
        const std::string count = "SELECT COUNT(*) FROM " + database + ".t";
        return valueOf(upstream, count) == valueOf(*down_, count) &&
               checksumOf(upstream, database + ".t") == checksumOf(*down_, database + ".t");
    }

    // Selects the overview's row of `label` (the table is sorted and filtered through a proxy) and clicks `button`.
    static void clickOnRow(OverviewPage& page, const QString& label, QPushButton* button) {
        QAbstractItemModel* shown = page.table()->model();
        page.table()->clearSelection();
        for (int row = 0; row < shown->rowCount(); ++row) {
            if (shown->index(row, FleetModel::ChannelColumn).data().toString() == label) {
                page.table()->selectionModel()->select(shown->index(row, 0),
                                                       QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
            }
        }
        QVERIFY(button->isEnabled());
        QTest::mouseClick(button, Qt::LeftButton);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QString output;
        QVERIFY2(secondPair_.start(&output), qPrintable(output));
        up_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::upstreamRoot()));
        third_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::SecondPair::upstreamRoot()));
        down_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::downstreamRoot()));
        const std::pair<UpstreamConnection*, const char*> created[] = {{up_.get(), kPairDatabase},
                                                                       {third_.get(), kThirdDatabase},
                                                                       {down_.get(), kPairDatabase},
                                                                       {down_.get(), kThirdDatabase}};
        for (const auto& [server, database] : created) {
            server->execute("SET SESSION sql_log_bin = 0");
            server->execute(std::string("DROP DATABASE IF EXISTS ") + database);
            server->execute(std::string("CREATE DATABASE ") + database);
            server->execute(std::string("CREATE TABLE ") + database + ".t (id INT PRIMARY KEY, v VARCHAR(40))");
            server->execute("SET SESSION sql_log_bin = 1");
        }
        down_->execute("CREATE DATABASE IF NOT EXISTS dm_meta");
        down_->execute(std::string("DROP TABLE IF EXISTS dm_meta.`") + kTaskName + "_syncer_checkpoint`");
    }

    void cleanupTestCase() {
        third_.reset();
        QString output;
        QVERIFY2(secondPair_.stop(&output), qPrintable(output));
    }

    void bothServersOnTheOverviewAndOnePausedFromTheGui() {
        const std::string dir = dir_.path().toStdString();
        const std::string pairSource = test::writeSourceFile(dir, kPairSource, test::upstreamReplication());
        const std::string thirdSource =
            test::writeSourceFile(dir, kThirdSource, test::SecondPair::upstreamReplication());
        auto pairEnd = up_->query("SHOW MASTER STATUS");
        auto thirdEnd = third_->query("SHOW MASTER STATUS");
        const std::string taskFile = test::writeMultiSourceTaskFile(
            dir, kTaskName, test::downstreamRoot(),
            {{kPairSource, kPairDatabase, *pairEnd.front()[0], std::stoull(*pairEnd.front()[1])},
             {kThirdSource, kThirdDatabase, *thirdEnd.front()[0], std::stoull(*thirdEnd.front()[1])}});
        multisource::MultiSourcePlan plan = multisource::loadMultiSourcePlan(taskFile, {pairSource, thirdSource});
        auto task = std::make_shared<multisource::MultiSourceTask>(plan.subtasks);

        MainWindow window;
        window.resize(kWidth, kHeight);
        window.show();
        window.attachTask(
            task, {QString::fromStdString(taskFile),
                   sourceField({QString::fromStdString(pairSource), QString::fromStdString(thirdSource)}), QString()});
        window.showOverview();
        window.fleetController()->refresh();
        FleetModel& fleet = *window.fleetController()->model();
        QCOMPARE(fleet.rowCount(), 3);
        QVERIFY2(fleet.rowAt(kPairRow).label.contains(kPairSource), qPrintable(describe(fleet)));
        QVERIFY2(fleet.rowAt(kThirdRow).label.contains(kThirdSource), qPrintable(describe(fleet)));

        QVERIFY(task->start().accepted);
        for (int round = 0; round < 2; ++round) {
            insertRows(*up_, kPairDatabase);
            insertRows(*third_, kThirdDatabase);
        }
        third_->execute(std::string("UPDATE ") + kThirdDatabase + ".t SET v = CONCAT(v, ' updated') WHERE id % 3 = 0");
        up_->execute(std::string("DELETE FROM ") + kPairDatabase + ".t WHERE id % 7 = 0");
        QVERIFY(test::waitFor([&] { return equal(*up_, kPairDatabase) && equal(*third_, kThirdDatabase); }, kWaitMs));
        QVERIFY2(test::waitFor(
                     [&] {
                         window.fleetController()->refresh();
                         return fleet.rowAt(kTaskRow).stage == QStringLiteral("Running") &&
                                fleet.rowAt(kPairRow).stage == QStringLiteral("Running") &&
                                fleet.rowAt(kThirdRow).stage == QStringLiteral("Running");
                     },
                     kWaitMs),
                 qPrintable(describe(fleet)));

        // The third server's source paused from the GUI, as before that server's maintenance.
        auto* page = window.findChild<OverviewPage*>();
        QVERIFY(page != nullptr);
        QString confirmation;
        window.fleetController()->setBatchConfirmer([&confirmation](const QString& text) {
            confirmation = text;
            return true;
        });
        clickOnRow(*page, fleet.rowAt(kThirdRow).label, page->pauseButton());
        QVERIFY2(confirmation.contains(kThirdSource) && !confirmation.contains(kPairSource), qPrintable(confirmation));
        QVERIFY2(test::waitFor(
                     [&] {
                         window.fleetController()->refresh();
                         return fleet.rowAt(kThirdRow).stage == QStringLiteral("Paused");
                     },
                     kWaitMs),
                 qPrintable(describe(fleet)));
        const std::string heldCount = valueOf(*down_, std::string("SELECT COUNT(*) FROM ") + kThirdDatabase + ".t");
        insertRows(*third_, kThirdDatabase);
        insertRows(*up_, kPairDatabase);
        QVERIFY(test::waitFor([&] { return equal(*up_, kPairDatabase); }, kWaitMs));
        QVERIFY2(test::waitFor(
                     [&] {
                         window.fleetController()->refresh();
                         return fleet.rowAt(kTaskRow).stage == QStringLiteral("Running") &&
                                fleet.rowAt(kPairRow).stage == QStringLiteral("Running") &&
                                fleet.rowAt(kThirdRow).stage == QStringLiteral("Paused") &&
                                fleet.rowAt(kTaskRow).snapshot &&
                                fleet.rowAt(kTaskRow).snapshot->stageReason.find(std::string("source ") + kThirdSource +
                                                                                 ": Paused") != std::string::npos;
                     },
                     kWaitMs),
                 qPrintable(describe(fleet)));
        QCOMPARE(valueOf(*down_, std::string("SELECT COUNT(*) FROM ") + kThirdDatabase + ".t"), heldCount);
        QApplication::processEvents();
        const QString shot = QString::fromStdString(test::outputDir("ui")) + "/overview_two_servers.png";
        QVERIFY(window.grab().save(shot));
        qInfo("screenshot: %s", qPrintable(shot));

        // Resumed from the GUI: what the third server wrote meanwhile arrives.
        clickOnRow(*page, fleet.rowAt(kThirdRow).label, page->resumeButton());
        QVERIFY2(test::waitFor([&] { return equal(*third_, kThirdDatabase) && equal(*up_, kPairDatabase); }, kWaitMs),
                 qPrintable(describe(fleet)));
        window.detachTask();
    }
};

QTEST_MAIN(MultiSourceTwoServersTest)
#include "test_multi_source_two_servers.moc"
