// The GUI over the real engine and the private MariaDB pair, offscreen: a task opened through the main
// window runs, rows arrive and every view moves (table checkpoints, counters, ruler markers), Pause,
// Resume and Stop follow; and the DM bug scenario (tiflow 5279) through the GUI: the failed-event panel
// shows the row and the missing column, Retry fails again, and after the downstream is fixed Retry
// applies the row. Screenshots at 1280x800 are saved for review (running task, failed event, ruler).
#include <QtTest>

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>

#include <atomic>
#include <thread>

#include "tests/support/task_files.h"
#include "tests/support/test_env.h"
#include "tests/ui/support/real_task.h"
#include "ui/engine/engine_adapter.h"
#include "ui/main/main_window.h"
#include "ui/main/task_actions.h"
#include "ui/main/task_view.h"
#include "ui/models/table_checkpoint_filter_proxy.h"
#include "ui/models/table_checkpoint_model.h"
#include "ui/pages/failed_event_panel.h"
#include "ui/pages/status_header.h"
#include "ui/pages/table_checkpoints_page.h"
#include "ui/widgets/position_ruler.h"
#include "ui/widgets/stage_badge.h"

using namespace syncscope;
using namespace syncscope::ui;
using source::UpstreamConnection;

namespace {

// Generous: the machine is shared and the engine waits for flush intervals.
constexpr int kWaitMs = 60000;
constexpr int kWidth = 1280;
constexpr int kHeight = 800;
constexpr int kRowsPerTable = 200;
const char* const kSchema = "guitest";
constexpr int kFlowBatches = 30;
constexpr int kFlowRowsPerBatch = 40;
constexpr int kFlowPauseMs = 60;
const std::vector<std::string> kTables = {"orders", "customers", "payments", "invoices", "shipments", "refunds"};

QString screenshotPath(const char* name) {
    return QString::fromStdString(test::outputDir("ui")) + "/" + name;
}

// The sum of the "Rows applied" column as the table checkpoints view shows it.
qulonglong rowsAppliedShown(const QAbstractItemModel& model) {
    qulonglong sum = 0;
    for (int row = 0; row < model.rowCount(); ++row) {
        sum += model.index(row, TableCheckpointModel::RowsAppliedColumn)
                   .data(TableCheckpointModel::SortRole)
                   .toULongLong();
    }
    return sum;
}

// The persisted point of one table as the view shows it ("file:pos"), or empty when it is not listed.
QString persistedShown(const QAbstractItemModel& model, const std::string& table) {
    for (int row = 0; row < model.rowCount(); ++row) {
        if (model.index(row, TableCheckpointModel::TableColumn).data().toString() == QString::fromStdString(table)) {
            return model.index(row, TableCheckpointModel::PersistedColumn).data().toString();
        }
    }
    return {};
}

QString stageShown(MainWindow& window) {
    return window.taskView()->header()->badge()->text();
}

// The axis value of the ruler's marker for one point, or -1 when the ruler has none.
double markerAxis(const PositionRuler& ruler, const task::PointView task::StatusSnapshot::*point) {
    const task::StatusSnapshot* shown = ruler.snapshot();
    if (!shown || !((*shown).*point).axis) {
        return -1;
    }
    return double(*((*shown).*point).axis);
}

}  // namespace

class GuiRealEngineTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    QTemporaryDir dir_;

    // The window opens tasks the way the application does: File > Recent tasks asks for the files and
    // this opener answers with the engine's Task.
    void connectOpener(MainWindow& window) {
        connect(&window, &MainWindow::openTaskRequested, &window, [this, &window](const TaskFiles& files) {
            const QString audit = dir_.filePath(QFileInfo(files.taskPath).baseName() + "-audit.jsonl");
            auto task =
                test::openRealTask(files.taskPath.toStdString(), files.sourcePath.toStdString(), audit.toStdString());
            window.attachTask(task, {files.taskPath, files.sourcePath, audit});
        });
    }

    void openThroughRecentMenu(MainWindow& window, const test::TaskFiles& files) {
        window.recentTasksMenu()->add({QString::fromStdString(files.task), QString::fromStdString(files.source), {}});
        QMenu* recent = nullptr;
        for (QMenu* menu : window.menuBar()->findChildren<QMenu*>()) {
            if (menu->title().contains(QStringLiteral("Recent"))) {
                recent = menu;
            }
        }
        QVERIFY(recent != nullptr);
        QVERIFY(!recent->actions().isEmpty());
        recent->actions().first()->trigger();
        QVERIFY(window.adapter()->hasTask());
    }

    void recreateSchema(const std::vector<std::string>& createStatements) {
        for (UpstreamConnection* server : {up_.get(), down_.get()}) {
            server->execute("SET SESSION sql_log_bin = 0");
            server->execute(std::string("DROP DATABASE IF EXISTS ") + kSchema);
            server->execute(std::string("CREATE DATABASE ") + kSchema);
            for (const std::string& sql : createStatements) {
                server->execute(sql);
            }
            server->execute("SET SESSION sql_log_bin = 1");
        }
        down_->execute("DROP DATABASE IF EXISTS dm_meta");
    }

    static void insertRows(UpstreamConnection& up, int firstId, int count) {
        for (const std::string& table : kTables) {
            std::string sql = std::string("INSERT INTO ") + kSchema + "." + table + " VALUES ";
            for (int id = firstId; id < firstId + count; ++id) {
                sql += (id == firstId ? "(" : ",(") + std::to_string(id) + ", 'row " + std::to_string(id) + "')";
            }
            up.execute(sql);
        }
    }

    // Rows keep arriving from another connection while the GUI is looked at.
    static void writeFlow(int firstId, std::atomic<bool>& failed) {
        try {
            auto up = test::connectUpstream();
            for (int batch = 0; batch < kFlowBatches; ++batch) {
                insertRows(*up, firstId + batch * kFlowRowsPerBatch, kFlowRowsPerBatch);
                std::this_thread::sleep_for(std::chrono::milliseconds(kFlowPauseMs));
            }
        } catch (const std::exception& e) {
            qWarning("the flow of rows failed: %s", e.what());
            failed = true;
        }
    }

    std::string downCount() {
        std::string total;
        int sum = 0;
        for (const std::string& table : kTables) {
            std::string value = test::valueOf(*down_, std::string("SELECT COUNT(*) FROM ") + kSchema + "." + table);
            if (value.rfind("ERROR", 0) == 0) {
                return value;
            }
            sum += std::stoi(value);
        }
        return std::to_string(sum);
    }

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
        QCoreApplication::setOrganizationName(QStringLiteral("SyncScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_gui_real_engine"));
        QVERIFY(dir_.isValid());
    }

    void init() {
        up_ = test::connectUpstream();
        down_ = test::connectDownstream();
    }

    void cleanup() {
        up_.reset();
        down_.reset();
    }

    void startedTaskShowsRowsArrivingAndFollowsPauseResumeStop() {
        std::vector<std::string> creates;
        for (const std::string& table : kTables) {
            creates.push_back(std::string("CREATE TABLE ") + kSchema + "." + table +
                              " (id INT PRIMARY KEY, v VARCHAR(40))");
        }
        recreateSchema(creates);
        const auto [file, pos] = test::masterPosition(*up_);
        test::TaskFileOptions options;
        options.name = "gui-running";
        options.binlogName = file;
        options.binlogPos = pos;
        options.instanceExtra = "    block-allow-list: \"only-guitest\"\n";
        options.topLevelExtra = "block-allow-list:\n  only-guitest: {do-dbs: [\"guitest\"]}\n";
        const test::TaskFiles files = test::writeTaskFiles(dir_.path().toStdString(), options);

        MainWindow window;
        connectOpener(window);
        window.resize(kWidth, kHeight);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        openThroughRecentMenu(window, files);
        TaskView* view = window.taskView();
        TaskActions* actions = window.actions();
        QVERIFY(window.windowTitle().contains(QStringLiteral("gui-running.yaml")));
        QVERIFY(actions->start()->isEnabled());
        QVERIFY(!actions->pause()->isEnabled());

        actions->start()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Running"), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(actions->pause()->isEnabled(), kWaitMs);
        QVERIFY(!actions->start()->isEnabled());

        // Rows arrive: the table checkpoints, the counters and the ruler's markers move.
        const int tableCount = int(kTables.size());
        insertRows(*up_, 1, kRowsPerTable);
        const auto [fileAfterFirst, posAfterFirst] = test::masterPosition(*up_);
        int expectedRows = tableCount * kRowsPerTable;
        QTRY_COMPARE_WITH_TIMEOUT(downCount(), std::to_string(expectedRows), kWaitMs);
        const QAbstractItemModel& tables = *view->tablesPage()->proxy();
        QTRY_COMPARE_WITH_TIMEOUT(tables.rowCount(), tableCount, kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(rowsAppliedShown(tables), qulonglong(expectedRows), kWaitMs);
        PositionRuler* ruler = view->ruler();
        const QString appliedAfterFirst = QString::fromStdString(fileAfterFirst + ":" + std::to_string(posAfterFirst));
        QTRY_VERIFY_WITH_TIMEOUT(
            ruler->snapshot() && ruler->snapshot()->applied.text() == appliedAfterFirst.toStdString(), kWaitMs);
        const double appliedAxis = markerAxis(*ruler, &task::StatusSnapshot::applied);
        QVERIFY(appliedAxis > 0);
        const QString hover = ruler->describeAt(QPoint(int(ruler->xOf(appliedAxis)), ruler->height() / 2));
        QVERIFY2(hover.contains(QStringLiteral("applied")) && hover.contains(appliedAfterFirst), qPrintable(hover));
        // The persisted points follow within a flush interval; no table is ahead of the global point.
        QTRY_COMPARE_WITH_TIMEOUT(persistedShown(tables, "orders").isEmpty(), false, kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(persistedShown(tables, "orders") != QStringLiteral("-"), kWaitMs);
        QCOMPARE(view->tableModel()->aheadCount(), 0);
        QVERIFY(view->header()->rowsText() != QStringLiteral("-"));
        // The task file's worker-count is the ceiling; adaptive concurrency allows between 1 and it.
        QVERIFY2(view->header()->workersText().contains(QStringLiteral("(max ")),
                 qPrintable(view->header()->workersText()));
        QVERIFY2(view->header()->workersReason().startsWith(QStringLiteral("Adaptive concurrency: ")),
                 qPrintable(view->header()->workersReason()));
        QTRY_VERIFY_WITH_TIMEOUT(markerAxis(*ruler, &task::StatusSnapshot::globalPersisted) >= 0, kWaitMs);
        const double persistedBefore = markerAxis(*ruler, &task::StatusSnapshot::globalPersisted);

        // A new binlog file, then rows that keep flowing: the ruler spans both files, and the views are
        // saved as they look while the task works.
        up_->execute("FLUSH BINARY LOGS");
        std::atomic<bool> flowFailed = false;
        const int flowFirstId = 2 * kRowsPerTable + 1;
        // Joined on every way out of this function, a failed check included.
        std::jthread flow(writeFlow, flowFirstId, std::ref(flowFailed));
        QTRY_VERIFY_WITH_TIMEOUT(ruler->snapshot() && ruler->snapshot()->upstreamFiles.size() >= 2, kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(rowsAppliedShown(tables) >= qulonglong(expectedRows + kFlowBatches * 3) || flowFailed,
                                 kWaitMs);
        QVERIFY(window.grab().save(screenshotPath("running_real_task.png")));
        // It opens on the span from the persisted global point to the upstream's end, not on every file.
        QCOMPARE(ruler->viewMode(), PositionRuler::ViewMode::Span);
        ruler->zoomIn();
        QVERIFY(ruler->isZoomed());
        QVERIFY(ruler->grab().save(screenshotPath("ruler_real_task_zoomed.png")));
        ruler->zoomToFit();
        flow.join();
        QVERIFY(!flowFailed);
        expectedRows += tableCount * kFlowBatches * kFlowRowsPerBatch;
        QTRY_COMPARE_WITH_TIMEOUT(downCount(), std::to_string(expectedRows), kWaitMs);

        // Pause: rows written upstream stay there, the view says Paused.
        actions->pause()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Paused"), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(actions->resume()->isEnabled(), kWaitMs);
        QVERIFY(!actions->pause()->isEnabled());
        insertRows(*up_, 1 + kRowsPerTable, kRowsPerTable);
        QTest::qWait(2000);  // long enough for a running task to apply them: it must not
        QCOMPARE(downCount(), std::to_string(expectedRows));
        QCOMPARE(stageShown(window), QStringLiteral("Paused"));

        // Resume: the paused rows arrive and the persisted global point moves forward.
        actions->resume()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Running"), kWaitMs);
        expectedRows += tableCount * kRowsPerTable;
        QTRY_COMPARE_WITH_TIMEOUT(downCount(), std::to_string(expectedRows), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(markerAxis(*ruler, &task::StatusSnapshot::globalPersisted) > persistedBefore, kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(markerAxis(*ruler, &task::StatusSnapshot::applied) > appliedAxis, kWaitMs);

        // Stop: flushed, Start is offered again, every table equals its upstream twin.
        actions->stop()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Stopped"), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(actions->start()->isEnabled(), kWaitMs);
        QVERIFY(!actions->stop()->isEnabled());
        std::vector<std::string> qualified;
        for (const std::string& table : kTables) {
            qualified.push_back(std::string(kSchema) + "." + table);
        }
        QVERIFY(tablesEqual(qualified));
        QCOMPARE(view->tableModel()->aheadCount(), 0);
        window.detachTask();
    }

    void dmScenarioThroughTheGuiShowsTheFailedRowRetriesAndLandsAfterTheFix() {
        // The DM bug report's task: test.test1's ALTER is filtered, so its next row fails downstream.
        for (UpstreamConnection* server : {up_.get(), down_.get()}) {
            server->execute("SET SESSION sql_log_bin = 0");
            server->execute("DROP DATABASE IF EXISTS test");
            server->execute("CREATE DATABASE test");
            server->execute("CREATE TABLE test.test1 (c INT PRIMARY KEY, c2 INT, c3 INT)");
            server->execute("SET SESSION sql_log_bin = 1");
        }
        down_->execute("DROP DATABASE IF EXISTS dm_meta");
        const auto [file, pos] = test::masterPosition(*up_);
        test::TaskFileOptions options;
        options.name = "gui-dm-scenario";
        options.binlogName = file;
        options.binlogPos = pos;
        options.instanceExtra =
            "    block-allow-list: \"ba-rule1\"\n"
            "    filter-rules: [\"filter-rule-1\"]\n";
        options.topLevelExtra =
            "block-allow-list:\n"
            "  ba-rule1: {do-dbs: [\"test\"]}\n"
            "filters:\n"
            "  filter-rule-1: {schema-pattern: \"test\", table-pattern: \"test1\", events: [\"all ddl\"], "
            "action: Ignore}\n";
        const test::TaskFiles files = test::writeTaskFiles(dir_.path().toStdString(), options);

        MainWindow window;
        connectOpener(window);
        window.resize(kWidth, kHeight);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        openThroughRecentMenu(window, files);
        TaskView* view = window.taskView();
        FailedEventPanel* panel = view->failedEventPanel();
        // Every stage the engine announces, in order, as the GUI receives them.
        QStringList stagesNoticed;
        connect(window.adapter(), &EngineAdapter::noticesArrived, this,
                [&stagesNoticed](const std::vector<task::Notice>& notices) {
                    for (const auto& notice : notices) {
                        stagesNoticed << QString::fromUtf8(task::stageName(notice.stage));
                    }
                });

        window.actions()->start()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Running"), kWaitMs);
        up_->execute("INSERT INTO test.test1 VALUES (1, 1, 1)");
        up_->execute("ALTER TABLE test.test1 ADD c4 INT");  // ignored by filter-rule-1
        up_->execute("CREATE TABLE test.test2 (id INT PRIMARY KEY, v VARCHAR(20))");
        up_->execute("INSERT INTO test.test2 VALUES (1, 'a'), (2, 'b')");
        QTRY_COMPARE_WITH_TIMEOUT(test::valueOf(*down_, "SELECT COUNT(*) FROM test.test2"), std::string("2"), kWaitMs);
        QTest::qWait(1500);  // more than one flush interval, as in the bug report
        up_->execute("INSERT INTO test.test1 VALUES (2, 2, 2, 2)");

        // The panel shows the failing row, the missing column and the DDL that would fix it.
        QTRY_VERIFY_WITH_TIMEOUT(view->failedEventShown(), kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Error"), kWaitMs);
        QCOMPARE(view->tabs()->currentWidget(), panel);
        QVERIFY(panel->hasEvent());
        const QString details = panel->detailsText();
        QVERIFY2(details.contains(QStringLiteral("1054")), qPrintable(details));
        QVERIFY2(details.contains(QStringLiteral("c4")), qPrintable(details));
        QVERIFY2(details.contains(QStringLiteral("ALTER TABLE")) && details.contains(QStringLiteral("ADD")),
                 qPrintable(details));
        QTableWidget* rows = panel->rowsTable();
        QCOMPARE(rows->columnCount(), 4);
        QCOMPARE(rows->horizontalHeaderItem(3)->text(), QStringLiteral("c4"));
        QCOMPARE(rows->item(0, 0)->text(), QStringLiteral("2"));
        QCOMPARE(rows->item(0, 3)->text(), QStringLiteral("2"));
        QVERIFY(window.actions()->skip()->isEnabled());
        QVERIFY(window.grab().save(screenshotPath("failed_real_event_panel.png")));

        // Retry without a fix: the engine runs again and stops on the same row; the panel shows it again.
        stagesNoticed.clear();
        panel->retryButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(stagesNoticed.contains(QStringLiteral("Running")), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(stagesNoticed.indexOf(QStringLiteral("Error"), stagesNoticed.indexOf("Running")) > 0,
                                 kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Error"), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(view->failedEventShown(), kWaitMs);
        QVERIFY(panel->detailsText().contains(QStringLiteral("1054")));
        QCOMPARE(rows->item(0, 0)->text(), QStringLiteral("2"));
        QCOMPARE(test::valueOf(*down_, "SELECT COUNT(*) FROM test.test1"), std::string("1"));

        // The DBA fixes the downstream; Retry applies the row and the panel clears.
        down_->execute("ALTER TABLE test.test1 ADD c4 INT");
        panel->retryButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(test::valueOf(*down_, "SELECT COUNT(*) FROM test.test1"), std::string("2"), kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Running"), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(!view->failedEventShown(), kWaitMs);
        QVERIFY(!window.actions()->skip()->isEnabled());
        window.actions()->stop()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Stopped"), kWaitMs);
        QVERIFY(tablesEqual({"test.test1", "test.test2"}));
        window.detachTask();
    }
};

QTEST_MAIN(GuiRealEngineTest)
#include "test_gui_real_engine.moc"
