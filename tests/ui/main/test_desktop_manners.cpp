// Desktop manners of the GUI offscreen: every button and action of the main window (with a task open,
// every tab) and of every dialog has a tooltip of its own; window state, recent tasks and the colour
// scheme are kept with QSettings; the desktop entry names an icon that exists and renders; and the
// main window is saved in light and dark palettes for review.
#include <QtTest>

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSvgRenderer>
#include <QTabBar>
#include <QTabWidget>

#include "tests/support/test_env.h"
#include "tests/ui/support/settle_window.h"
#include "tests/ui/support/simulated_task.h"
#include "ui/dialogs/new_task_dialog.h"
#include "ui/dialogs/precheck_dialog.h"
#include "ui/dialogs/resume_from_dialog.h"
#include "ui/dialogs/skip_event_dialog.h"
#include "ui/engine/engine_adapter.h"
#include "ui/inspect/checkpoint_inspection_page.h"
#include "ui/inspect/inspection_connection_dialog.h"
#include "ui/main/color_scheme.h"
#include "ui/main/main_window.h"
#include "ui/main/task_actions.h"
#include "ui/main/task_view.h"

using namespace syncscope::ui;
using syncscope::test::settle;
using syncscope::test::SimulatedTask;

namespace {

QString screenshotPath(const char* name) {
    return QString::fromStdString(syncscope::test::outputDir("ui")) + "/" + name;
}

QString describe(const QObject* object) {
    QStringList chain;
    for (const QObject* o = object; o; o = o->parent()) {
        chain.prepend(QStringLiteral("%1(%2)").arg(QString::fromLatin1(o->metaObject()->className()), o->objectName()));
    }
    return chain.join(QStringLiteral(" > "));
}

// Buttons Qt makes inside its own widgets (table corner, tab scrollers, toolbar extension): not ours to label.
bool isQtInternal(const QAbstractButton* button) {
    const QString cls = QString::fromLatin1(button->metaObject()->className());
    return button->objectName().startsWith(QLatin1String("qt_")) || cls == QLatin1String("QTableCornerButton") ||
           cls == QLatin1String("QToolBarExtension") || cls == QLatin1String("QDockWidgetTitleButton") ||
           qobject_cast<const QTabBar*>(button->parent()) != nullptr ||
           QString::fromLatin1(button->parent()->metaObject()->className()) == QLatin1String("QLineEdit");
}

// Every QAbstractButton and QAction under root without a tooltip of its own (an action's tooltip
// defaults to its text, which says nothing more: that counts as missing).
QStringList controlsWithoutToolTips(const QWidget* root) {
    QStringList missing;
    for (const QAbstractButton* button : root->findChildren<QAbstractButton*>()) {
        if (!isQtInternal(button) && button->toolTip().trimmed().isEmpty()) {
            missing << QStringLiteral("button '%1': %2").arg(button->text(), describe(button));
        }
    }
    QList<QAction*> actions = root->findChildren<QAction*>();
    for (const QMenu* menu : root->findChildren<QMenu*>()) {
        actions += menu->actions();
    }
    for (const QAction* action : actions) {
        if (action->isSeparator() || action->menu() || action->text().isEmpty()) {
            continue;  // separators and submenu entries are not controls
        }
        const QString plain = QString(action->text()).remove(QLatin1Char('&')).trimmed();
        const QString tip = action->toolTip().trimmed();
        if (tip.isEmpty() || tip == plain) {
            missing << QStringLiteral("action '%1': %2").arg(plain, describe(action));
        }
    }
    missing.removeDuplicates();
    return missing;
}

// A running task with one table point ahead of the persisted global point, as in the main window suite.
std::shared_ptr<SimulatedTask> runningTask(MainWindow& window) {
    auto task = std::make_shared<SimulatedTask>(24);
    window.attachTask(task, {QStringLiteral("/tmp/orders.yaml"), QStringLiteral("/tmp/source.yaml"), {}});
    window.actions()->start()->trigger();
    settle(window);
    for (int tick = 0; tick < 4; ++tick) {
        task->advance(90000, 1200);
        task->flush();
        window.adapter()->refreshNow();
    }
    task->advance(40000, 800);
    task->putTableAhead(3, 2400, 12);
    settle(window);
    return task;
}

}  // namespace

class DesktopMannersTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("SyncScopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_desktop_manners"));
        QSettings().clear();
    }

    void cleanupTestCase() { QSettings().clear(); }

    void everyControlOfTheMainWindowHasATooltip() {
        MainWindow window;
        auto task = runningTask(window);
        task->fail(SimulatedTask::missingColumnEvent());
        settle(window);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTabWidget* tabs = window.taskView()->tabs();
        for (int tab = 0; tab < tabs->count(); ++tab) {
            tabs->setCurrentIndex(tab);  // pages may create their controls lazily
        }
        window.showCheckpointInspection();
        const QStringList missing = controlsWithoutToolTips(&window);
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("\n") + missing.join(QLatin1Char('\n'))));
    }

    void everyControlOfTheDialogsHasATooltip() {
        NewTaskDialog newTask;
        InspectionConnectionDialog connection;
        MainWindow window;
        runningTask(window);
        ResumeFromDialog resumeFrom(window.adapter()->lastSnapshot());
        SkipEventDialog skip(QStringLiteral("INSERT INTO shop.orders ..."), QStringLiteral("shop.orders"));
        PrecheckDialog precheck(syncscope::task::TaskSetup{}, QStringLiteral("/tmp/orders-audit.jsonl"));
        QStringList missing;
        for (const QWidget* dialog :
             std::initializer_list<const QWidget*>{&newTask, &connection, &resumeFrom, &skip, &precheck}) {
            missing += controlsWithoutToolTips(dialog);
        }
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("\n") + missing.join(QLatin1Char('\n'))));
    }

    void windowStateAndRecentTasksAreKept() {
        QSettings().clear();
        {
            MainWindow window;
            window.resize(1111, 777);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            for (int i = 0; i < MainWindow::kMaxRecentTasks + 3; ++i) {
                window.recentTasksMenu()->add(
                    {QStringLiteral("/tasks/t%1.yaml").arg(i), QStringLiteral("/tasks/s.yaml"), {}});
            }
            window.recentTasksMenu()->add({QStringLiteral("/tasks/t2.yaml"), QStringLiteral("/tasks/s.yaml"), {}});
            window.showCheckpointInspection()->resize(900, 500);
            window.close();  // no task running: closes at once and saves its state
        }
        QVERIFY(QSettings().contains(QStringLiteral("window/geometry")));
        MainWindow again;
        QCOMPARE(again.size(), QSize(1111, 777));
        const QStringList recent = again.recentTasksMenu()->entries();
        QCOMPARE(recent.size(), MainWindow::kMaxRecentTasks);
        QVERIFY(recent.first().startsWith(QStringLiteral("/tasks/t2.yaml")));  // reopened: first, once
        QCOMPARE(recent.filter(QStringLiteral("/tasks/t2.yaml")).size(), 1);
        QVERIFY(recent.last().startsWith(QStringLiteral("/tasks/t4.yaml")));  // the oldest fell off
        QCOMPARE(again.showCheckpointInspection()->size(), QSize(900, 500));
    }

    void colourSchemeIsKeptAndApplied() {
        QSettings().clear();
        MainWindow window;
        QAction* dark = nullptr;
        for (QAction* action : window.findChildren<QAction*>()) {
            if (action->text() == QStringLiteral("D&ark")) {
                dark = action;
            }
        }
        QVERIFY(dark != nullptr);
        dark->trigger();
        QCOMPARE(QSettings().value(QStringLiteral("view/colorScheme")).toString(), QStringLiteral("dark"));
        QCOMPARE(QApplication::palette().color(QPalette::Window), darkPalette().color(QPalette::Window));
        applyColorScheme(ColorScheme::System);
        QSettings().remove(QStringLiteral("view/colorScheme"));
        QVERIFY(QApplication::palette().color(QPalette::Window) != darkPalette().color(QPalette::Window));
    }

    void desktopEntryNamesAnIconThatRenders() {
        QFile entry(QStringLiteral(SYNCSCOPE_SOURCE_DIR "/resources/syncscope.desktop"));
        QVERIFY(entry.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(entry.readAll());
        QVERIFY(text.startsWith(QStringLiteral("[Desktop Entry]")));
        for (const char* key : {"Type=Application", "Name=SyncScope", "Exec=syncscope", "Icon=syncscope", "Comment="}) {
            QVERIFY2(text.contains(QLatin1String(key)), key);
        }
        QSvgRenderer icon(QStringLiteral(SYNCSCOPE_SOURCE_DIR "/resources/icons/syncscope.svg"));
        QVERIFY(icon.isValid());
        QVERIFY(!QApplication::windowIcon().isNull() || !MainWindow().windowIcon().isNull());
        QImage rendered = MainWindow().windowIcon().pixmap(64, 64).toImage();
        QVERIFY(!rendered.isNull());
    }

    void mainWindowIsSavedInLightAndDarkPalettes() {
        QSettings().clear();
        for (const auto& [scheme, file] : {std::pair{ColorScheme::Light, "light_running_task.png"},
                                           std::pair{ColorScheme::Dark, "dark_running_task.png"}}) {
            applyColorScheme(scheme);
            MainWindow window;
            window.resize(1280, 800);
            auto task = runningTask(window);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.grab().save(screenshotPath(file)));
            if (scheme == ColorScheme::Dark) {
                task->fail(SimulatedTask::missingColumnEvent());
                settle(window);
                QVERIFY(window.taskView()->failedEventShown());
                QVERIFY(window.grab().save(screenshotPath("dark_failed_event.png")));
                CheckpointInspectionPage* page = window.showCheckpointInspection();
                QVERIFY(page->grab().save(screenshotPath("dark_inspection_empty.png")));
                NewTaskDialog dialog;
                dialog.resize(1000, 640);
                dialog.show();
                QVERIFY(QTest::qWaitForWindowExposed(&dialog));
                QVERIFY(dialog.grab().save(screenshotPath("dark_newtask.png")));
            }
        }
        applyColorScheme(ColorScheme::System);
    }
};

QTEST_MAIN(DesktopMannersTest)
#include "test_desktop_manners.moc"
