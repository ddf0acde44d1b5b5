// The GUI's Pause, Resume, Stop and Start during a snapshot load (task-mode full), offscreen on the real
// pair: while chunks are copied the four commands say that they act on the load (texts and tooltips);
// Pause rolls back the chunks in flight and nothing is copied while paused; Resume copies only the
// chunks not yet committed (a committed row changed downstream meanwhile keeps its change to the end);
// Stop leaves a load that Start finishes; the tables end equal to the upstream (CHECKSUM TABLE).
// Screenshot: the paused load at 1280x800.
#include <QtTest>

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QTabWidget>
#include <QTemporaryDir>

#include <chrono>
#include <thread>

#include "tests/support/task_files.h"
#include "tests/support/test_env.h"
#include "tests/ui/support/real_task.h"
#include "ui/engine/engine_adapter.h"
#include "ui/main/main_window.h"
#include "ui/main/task_actions.h"
#include "ui/main/task_view.h"
#include "ui/pages/load_page.h"
#include "ui/pages/status_header.h"
#include "ui/widgets/stage_badge.h"

using namespace syncscope;
using namespace syncscope::ui;
using source::UpstreamConnection;

namespace {

constexpr int kWaitMs = 120000;
constexpr int kWidth = 1280;
constexpr int kHeight = 800;
// About 800 chunks of 250 rows for 2 workers: the clicks land while most chunks are pending.
constexpr int kRows = 200000;
constexpr int kKeylessRows = 5000;
constexpr const char* kTaskName = "gui-load";
constexpr const char* kCheckpoint = "dm_meta.`gui-load_loader_checkpoint`";
constexpr double kShareBeforePause = 0.05;
constexpr double kShareBeforeStop = 0.05;  // more, after the resume
// How long a paused or stopped load is watched for rows that should not move.
constexpr std::chrono::milliseconds kQuietWatch{1500};
const std::vector<std::string> kTables = {"guiload.wide", "guiload.nokey"};
constexpr const char* kMarker = "changed downstream while held";

QString stageShown(MainWindow& window) {
    return window.taskView()->header()->badge()->text();
}

uint64_t number(UpstreamConnection& server, const std::string& sql) {
    return std::stoull(server.queryValue(sql).value_or("0"));
}

}  // namespace

class GuiLoadControlsTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    QTemporaryDir dir_;

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

    void createSource() {
        for (UpstreamConnection* server : {up_.get(), down_.get()}) {
            server->execute("DROP DATABASE IF EXISTS guiload");
        }
        down_->execute("DROP DATABASE IF EXISTS dm_meta");
        up_->execute("CREATE DATABASE guiload");
        up_->execute("USE guiload");  // the seq_1_to_N tables of the SEQUENCE engine need a current database
        up_->execute("CREATE TABLE guiload.wide (id INT PRIMARY KEY, name VARCHAR(40), note VARCHAR(64))");
        up_->execute("CREATE TABLE guiload.nokey (a INT, b VARCHAR(20))");
        up_->execute("INSERT INTO guiload.wide SELECT seq, CONCAT('row ', seq), REPEAT('n', seq % 60) FROM seq_1_to_" +
                     std::to_string(kRows));
        up_->execute("INSERT INTO guiload.nokey SELECT seq % 97, CONCAT('k', seq) FROM seq_1_to_" +
                     std::to_string(kKeylessRows));
        up_->execute("ANALYZE TABLE guiload.wide, guiload.nokey");  // the estimate the chunks are planned from
    }

    std::pair<uint64_t, uint64_t> chunks() {
        try {
            auto row = down_->query(std::string("SELECT COALESCE(SUM(done), 0), COUNT(*) FROM ") + kCheckpoint).front();
            return {std::stoull(*row[0]), std::stoull(*row[1])};
        } catch (const std::exception&) {
            return {0, 0};
        }
    }

    uint64_t rowsOfDoneChunks() {
        return number(*down_, std::string("SELECT COALESCE(SUM(rows_done), 0) FROM ") + kCheckpoint + " WHERE done");
    }

    uint64_t rowsDownstream() {
        uint64_t rows = 0;
        for (const std::string& table : kTables) {
            std::string count = test::valueOf(*down_, "SELECT COUNT(*) FROM " + table);
            rows += count.rfind("ERROR", 0) == 0 ? 0 : std::stoull(count);
        }
        return rows;
    }

    bool waitForDone(uint64_t atLeast) {
        return QTest::qWaitFor([&] { return chunks().first >= atLeast; }, kWaitMs);
    }

    // Rows held: the downstream holds exactly the rows of the committed chunks, and nothing moves.
    void checkHeld(MainWindow& window, uint64_t doneHeld) {
        QCOMPARE(rowsDownstream(), rowsOfDoneChunks());
        const QString summary = window.taskView()->loadPage()->summaryText();
        std::this_thread::sleep_for(kQuietWatch);
        QCOMPARE(chunks().first, doneHeld);
        QCOMPARE(rowsDownstream(), rowsOfDoneChunks());
        QTest::qWait(300);  // a few status ticks
        QCOMPARE(window.taskView()->loadPage()->summaryText().section(';', 0, 0), summary.section(';', 0, 0));
    }

    static void verifyTip(QAction* action, const QString& text, const QString& saying) {
        QCOMPARE(action->text(), text);
        QVERIFY2(action->toolTip().contains(saying), qPrintable(action->toolTip()));
        QVERIFY2(action->statusTip().contains(saying), qPrintable(action->statusTip()));
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("SyncScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_gui_load_controls"));
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

    void pauseResumeStopDuringTheLoadActOnChunksAndEndEqual() {
        createSource();
        test::TaskFileOptions options;
        options.name = kTaskName;
        options.taskMode = "full";
        options.instanceExtra =
            "    block-allow-list: \"only-guiload\"\n"
            "    mydumper: {threads: 2, rows: 250}\n";
        options.topLevelExtra = "block-allow-list:\n  only-guiload: {do-dbs: [\"guiload\"]}\n";
        const test::TaskFiles files = test::writeTaskFiles(dir_.path().toStdString(), options);

        MainWindow window;
        connectOpener(window);
        window.resize(kWidth, kHeight);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        openThroughRecentMenu(window, files);
        TaskActions* actions = window.actions();

        actions->start()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Running"), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(chunks().second > 0, kWaitMs);
        const uint64_t total = chunks().second;
        QVERIFY2(total > 100, qPrintable(QString::number(total)));
        QTRY_VERIFY_WITH_TIMEOUT(actions->pause()->isEnabled(), kWaitMs);
        // While chunks are copied, the commands say what they do to the load.
        verifyTip(actions->pause(), QStringLiteral("&Pause load"),
                  QStringLiteral("chunks being copied are rolled back"));
        verifyTip(actions->stop(), QStringLiteral("S&top load"), QStringLiteral("Start goes on with the rest"));
        // The Load tab comes with the first snapshot whose load has its tables (the GUI's next refresh),
        // and opens while the load runs.
        QTRY_COMPARE_WITH_TIMEOUT(window.taskView()->tabs()->currentWidget(),
                                  static_cast<QWidget*>(window.taskView()->loadPage()), kWaitMs);

        // Pause: the chunks in flight are rolled back, nothing is copied while paused.
        QVERIFY(waitForDone(uint64_t(kShareBeforePause * double(total)) + 1));
        actions->pause()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Paused"), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(actions->resume()->isEnabled(), kWaitMs);
        verifyTip(actions->resume(), QStringLiteral("&Resume load"),
                  QStringLiteral("copy only the chunks not yet committed"));
        const uint64_t doneAtPause = chunks().first;
        QVERIFY2(doneAtPause < total, "the load finished before the pause landed");
        checkHeld(window, doneAtPause);
        QTRY_VERIFY_WITH_TIMEOUT(window.taskView()->loadPage()->totalBar()->value() > 0, kWaitMs);
        const QString screenshot = QString::fromStdString(test::outputDir("ui")) + "/load_paused_gui.png";
        QVERIFY(window.grab().save(screenshot));

        // A committed row changed downstream while paused: a committed chunk copied again would put it back.
        const std::string committedId = down_->queryValue("SELECT MAX(id) FROM guiload.wide").value_or("");
        QVERIFY2(!committedId.empty(), "no committed row of guiload.wide to mark");
        down_->execute(std::string("UPDATE guiload.wide SET note = '") + kMarker + "' WHERE id = " + committedId);

        // Resume: copying goes on; then Stop leaves the rest for Start.
        actions->resume()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Running"), kWaitMs);
        QVERIFY(waitForDone(doneAtPause + uint64_t(kShareBeforeStop * double(total)) + 1));
        actions->stop()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Stopped"), kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(actions->start()->isEnabled(), kWaitMs);
        verifyTip(actions->start(), QStringLiteral("&Start load"), QStringLiteral("copy the chunks not yet committed"));
        const uint64_t doneAtStop = chunks().first;
        QVERIFY2(doneAtStop < total, "the load finished before the stop landed");
        QVERIFY(doneAtStop > doneAtPause);
        checkHeld(window, doneAtStop);

        // Start: the rest of the load, then task-mode full stops by itself.
        actions->start()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(window.taskView()->loadPage()->summaryText().contains(QStringLiteral("load finished")),
                                 kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(stageShown(window), QStringLiteral("Stopped"), kWaitMs);
        QCOMPARE(chunks().first, total);
        QCOMPARE(rowsOfDoneChunks(), uint64_t(kRows + kKeylessRows));
        QCOMPARE(test::valueOf(*down_, "SELECT note FROM guiload.wide WHERE id = " + committedId),
                 std::string(kMarker));
        // The load is over: the commands speak of replication again.
        QTRY_COMPARE_WITH_TIMEOUT(actions->start()->text(), QStringLiteral("&Start"), kWaitMs);

        const std::string original =
            test::valueOf(*up_, "SELECT QUOTE(note) FROM guiload.wide WHERE id = " + committedId);
        down_->execute("UPDATE guiload.wide SET note = " + original + " WHERE id = " + committedId);
        for (const std::string& table : kTables) {
            const std::string sql = "CHECKSUM TABLE " + table;
            QCOMPARE(*down_->query(sql).front()[1], *up_->query(sql).front()[1]);
            QCOMPARE(test::valueOf(*down_, "SELECT COUNT(*) FROM " + table),
                     test::valueOf(*up_, "SELECT COUNT(*) FROM " + table));
        }
        window.detachTask();
    }
};

QTEST_MAIN(GuiLoadControlsTest)
#include "test_gui_load_controls.moc"
