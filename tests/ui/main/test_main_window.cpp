// The main window offscreen, driven by a TaskControl that behaves like the engine (SimulatedTask; the
// real engine is wired to the GUI by another test later): controls follow the stage, the failed-event
// panel shows the row and the missing column and clears when the task runs again, Retry fails until the
// cause is fixed, and the screenshots for review are saved (running task, failed event, flagged table).
#include <QtTest>

#include <QAction>
#include <QCheckBox>
#include <QLabel>
#include <QMenuBar>
#include <QPushButton>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>

#include "tests/support/test_env.h"
#include "tests/ui/support/settle_window.h"
#include "tests/ui/support/simulated_task.h"
#include "ui/engine/engine_adapter.h"
#include "ui/main/main_window.h"
#include "ui/main/task_actions.h"
#include "ui/main/task_view.h"
#include "ui/models/log_model.h"
#include "ui/models/table_checkpoint_filter_proxy.h"
#include "ui/models/table_checkpoint_model.h"
#include "ui/overview/overview_page.h"
#include "ui/pages/failed_event_panel.h"
#include "ui/pages/load_page.h"
#include "ui/pages/status_header.h"
#include "ui/pages/table_checkpoints_page.h"
#include "ui/widgets/stage_badge.h"

using namespace syncscope::ui;
using syncscope::task::Stage;
using syncscope::test::settle;
using syncscope::test::SimulatedTask;

namespace {
QString screenshotPath(const char* name) {
    return QString::fromStdString(syncscope::test::outputDir("ui")) + "/" + name;
}

}  // namespace

class MainWindowTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("SyncScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_main_window"));
    }

    void emptyWindowShowsTheStartArea() {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.windowTitle(), QStringLiteral("SyncScope"));
        QVERIFY(!window.menuBar()->actions().isEmpty());
        auto* stack = qobject_cast<QStackedWidget*>(window.centralWidget());
        QVERIFY(stack != nullptr);
        // The overview is the start page; with no channel it shows the start area.
        auto* overview = qobject_cast<OverviewPage*>(stack->currentWidget());
        QVERIFY(overview != nullptr);
        QVERIFY(overview->showingStartArea());
        for (QAction* action : window.actions()->all()) {
            QVERIFY2(!action->isEnabled(), qPrintable(action->text()));
            QVERIFY(!action->toolTip().isEmpty());
        }
        QCOMPARE(window.statusBar()->currentMessage(), QStringLiteral("No task open"));
        QVERIFY(window.grab().save(screenshotPath("main_window_empty.png")));
    }

    void controlsFollowTheStage() {
        auto task = std::make_shared<SimulatedTask>(6);
        MainWindow window;
        window.attachTask(task, {QStringLiteral("/tmp/orders.yaml"), QStringLiteral("/tmp/source.yaml"), {}});
        settle(window);
        QVERIFY2(window.statusBar()->currentMessage() != QStringLiteral("No task open"),
                 qPrintable(window.statusBar()->currentMessage()));  // below the task it shows
        TaskActions* actions = window.actions();
        QVERIFY(actions->start()->isEnabled());
        QVERIFY(!actions->pause()->isEnabled());
        QCOMPARE(window.taskView()->header()->badge()->text(), QStringLiteral("New"));
        actions->start()->trigger();
        settle(window);
        QCOMPARE(task->stage(), Stage::Running);
        QVERIFY(!actions->start()->isEnabled());
        QVERIFY(actions->pause()->isEnabled());
        QVERIFY(actions->stop()->isEnabled());
        QCOMPARE(window.taskView()->header()->badge()->text(), QStringLiteral("Running"));
        // The command's answer is said once (it was 'Start: done' twice, in the label and the message).
        int said = 0;
        for (const QLabel* label : window.statusBar()->findChildren<QLabel*>()) {
            said += label->text() == QStringLiteral("Start: accepted") ? 1 : 0;
        }
        QCOMPARE(said, 1);
        QVERIFY2(!window.statusBar()->currentMessage().contains(QStringLiteral("Start")),
                 qPrintable(window.statusBar()->currentMessage()));
        actions->pause()->trigger();
        settle(window);
        QCOMPARE(task->stage(), Stage::Paused);
        QVERIFY(actions->resume()->isEnabled());
        QVERIFY(actions->resumeFrom()->isEnabled());
        actions->resume()->trigger();
        settle(window);
        QCOMPARE(task->stage(), Stage::Running);
        actions->stop()->trigger();
        settle(window);
        QCOMPARE(task->stage(), Stage::Stopped);
        QVERIFY(actions->start()->isEnabled());
        QVERIFY(window.recentTasksMenu()->entries().first().startsWith(QStringLiteral("/tmp/orders.yaml")));
    }

    // Behind the overview the task view keeps recording its history but holds the rest until it is shown again
    // (its header, ruler and table model cost the GUI thread every tick in bench_gui_fleet).
    void aTaskViewBehindTheOverviewHoldsItsSnapshotUntilShown() {
        auto task = std::make_shared<SimulatedTask>(6);
        MainWindow window;
        window.attachTask(task, {QStringLiteral("/tmp/orders.yaml"), QStringLiteral("/tmp/source.yaml"), {}});
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.actions()->start()->trigger();
        settle(window);
        TaskView* view = window.taskView();
        QVERIFY(!view->holdsSnapshotUntilShown());
        window.showOverview();
        const uint64_t shownSequence = view->tableModel()->snapshot()->sequence;
        task->advance(90000, 1200);
        window.adapter()->refreshNow();
        QVERIFY(view->holdsSnapshotUntilShown());
        QCOMPARE(view->tableModel()->snapshot()->sequence, shownSequence);
        auto* stack = qobject_cast<QStackedWidget*>(window.centralWidget());
        QVERIFY(stack != nullptr);
        stack->setCurrentWidget(view);
        QVERIFY(!view->holdsSnapshotUntilShown());
        QCOMPARE(view->tableModel()->snapshot()->sequence, window.adapter()->lastSnapshot()->sequence);
        QVERIFY(view->tableModel()->snapshot()->sequence != shownSequence);
    }

    void runningTaskWithAFlaggedTableIsSavedAsScreenshots() {
        auto task = std::make_shared<SimulatedTask>(40);
        MainWindow window;
        window.resize(1280, 800);
        window.attachTask(task, {QStringLiteral("/tmp/orders.yaml"), QStringLiteral("/tmp/source.yaml"), {}});
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.actions()->start()->trigger();
        settle(window);
        for (int tick = 0; tick < 4; ++tick) {
            task->advance(90000, 1200);
            task->flush();
            window.adapter()->refreshNow();
        }
        task->advance(40000, 800);  // in memory ahead of what is persisted
        task->putTableAhead(3, 2400, 12);
        settle(window);
        TaskView* view = window.taskView();
        QCOMPARE(view->tableModel()->rowCount(), 40);
        QCOMPARE(view->tableModel()->aheadCount(), 1);
        QVERIFY(view->header()->lagText() != QStringLiteral("-"));
        QVERIFY(window.grab().save(screenshotPath("running_task.png")));

        view->tablesPage()->onlyAnomaliesSwitch()->setChecked(true);
        QCOMPARE(view->tablesPage()->proxy()->rowCount(), 1);
        const QModelIndex flagged = view->tablesPage()->proxy()->index(0, TableCheckpointModel::TableColumn);
        QCOMPARE(flagged.data().toString(), QStringLiteral("t3"));
        QVERIFY(flagged.data(Qt::ToolTipRole).toString().contains(QStringLiteral("skips 12 event(s)")));
        const QString csv = view->tablesPage()->visibleRowsCsv();
        QVERIFY2(csv.contains(QStringLiteral("shop,t3,")), qPrintable(csv));
        QVERIFY2(csv.contains(QStringLiteral(",2400,12,")), qPrintable(csv));
        view->tablesPage()->onlyAnomaliesSwitch()->setChecked(false);
        view->tablesPage()->view()->sortByColumn(TableCheckpointModel::BytesFromGlobalColumn, Qt::DescendingOrder);
        QCOMPARE(view->tablesPage()->proxy()->index(0, TableCheckpointModel::TableColumn).data().toString(),
                 QStringLiteral("t3"));
        QVERIFY(window.grab().save(screenshotPath("flagged_checkpoint_table.png")));
    }

    void failedEventPanelShowsTheRowRetriesAndClears() {
        auto task = std::make_shared<SimulatedTask>(8);
        MainWindow window;
        window.resize(1280, 800);
        window.attachTask(task);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.actions()->start()->trigger();
        settle(window);
        task->advance(60000, 300);
        task->flush();
        task->fail(SimulatedTask::missingColumnEvent());
        settle(window);
        TaskView* view = window.taskView();
        FailedEventPanel* panel = view->failedEventPanel();
        QVERIFY(view->failedEventShown());
        QCOMPARE(view->tabs()->currentWidget(), panel);
        QCOMPARE(view->header()->badge()->text(), QStringLiteral("Error"));
        QCOMPARE(panel->rowsTable()->columnCount(), 4);
        QCOMPARE(panel->rowsTable()->horizontalHeaderItem(3)->text(), QStringLiteral("note"));
        QCOMPARE(panel->rowsTable()->item(0, 0)->text(), QStringLiteral("1042"));
        QCOMPARE(panel->rowsTable()->item(0, 3)->text(), QStringLiteral("NULL"));
        QVERIFY(panel->detailsText().contains(QStringLiteral("Unknown column 'note'")));
        QVERIFY(panel->detailsText().contains(QStringLiteral("ADD COLUMN `note`")));
        QCOMPARE(panel->skipConfirmationText(), QStringLiteral("shop.orders"));
        QVERIFY(window.actions()->skip()->isEnabled());
        QVERIFY(window.grab().save(screenshotPath("failed_event_panel.png")));

        panel->retryButton()->click();  // the cause is not fixed: it fails again
        settle(window);
        QCOMPARE(task->stage(), Stage::Error);
        QVERIFY(view->failedEventShown());

        task->fixCause();
        panel->retryButton()->click();
        settle(window);
        QCOMPARE(task->stage(), Stage::Running);
        QVERIFY(!view->failedEventShown());
        QVERIFY(!panel->hasEvent());
        QCOMPARE(task->skips(), 0);
    }

    // A resumed task (its load done before) opens on its checkpoints, not on an empty Load tab; a load
    // with tables shows the tab and opens on it while it runs. Stage changes are logged as news, and one
    // without a reason as the stage alone ("Running", not a warning "Running:").
    void aResumedTaskOpensWithoutAnEmptyLoadTabAndStageLinesAreNews() {
        TaskView view;
        view.resize(1280, 800);
        const int tabsBefore = view.tabs()->count();
        QWidget* current = view.tabs()->currentWidget();
        auto resumed = std::make_shared<syncscope::task::StatusSnapshot>();
        resumed->stage = Stage::Running;
        resumed->load = syncscope::load::LoadProgressView{};  // what a resumed task's load stage reports
        view.setSnapshot(resumed);
        QCOMPARE(view.tabs()->count(), tabsBefore);
        QCOMPARE(view.tabs()->currentWidget(), current);

        auto loading = std::make_shared<syncscope::task::StatusSnapshot>(*resumed);
        syncscope::load::TableLoadView table;
        table.schema = "shop";
        table.table = "orders";
        table.rowsEstimated = 1000;
        loading->load->tables.push_back(table);
        view.setSnapshot(loading);
        QCOMPARE(view.tabs()->count(), tabsBefore + 1);
        QCOMPARE(view.tabs()->currentWidget(), static_cast<QWidget*>(view.loadPage()));

        view.appendNotices({{syncscope::task::Clock::now(), Stage::Running, "", false},
                            {syncscope::task::Clock::now(), Stage::Paused, "paused by the DBA", false}});
        LogModel* log = view.logModel();
        QCOMPARE(log->rowCount(), 2);
        QCOMPARE(log->data(log->index(0, LogModel::MessageColumn)).toString(), QStringLiteral("Running"));
        QCOMPARE(log->data(log->index(1, LogModel::MessageColumn)).toString(),
                 QStringLiteral("Paused: paused by the DBA"));
        QCOMPARE(log->data(log->index(0, LogModel::LevelColumn)).toString(), QStringLiteral("info"));
    }

    void closingWithARunningTaskStopsItFirst() {
        auto task = std::make_shared<SimulatedTask>(2);
        MainWindow window;
        window.attachTask(task);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.actions()->start()->trigger();
        settle(window);
        QVERIFY(!window.close());  // refused for now: the task is stopping
        QTRY_COMPARE(task->stage(), Stage::Stopped);
        QTRY_VERIFY(!window.isVisible());
    }
};

QTEST_MAIN(MainWindowTest)
#include "test_main_window.moc"
