// The main window opens offscreen, says that no task is open, and is saved as a screenshot for review.
#include <QtTest>

#include <QLabel>
#include <QMenuBar>

#include "tests/support/test_env.h"
#include "ui/main/main_window.h"

class MainWindowTest : public QObject {
    Q_OBJECT

private slots:
    void emptyWindowOpensAndIsSavedAsScreenshot() {
        syncscope::ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.windowTitle(), QStringLiteral("SyncScope"));
        QVERIFY(!window.menuBar()->actions().isEmpty());
        auto* welcome = qobject_cast<QLabel*>(window.centralWidget());
        QVERIFY(welcome != nullptr);
        QVERIFY(welcome->text().contains(QStringLiteral("No task is open")));

        QString path = QString::fromStdString(syncscope::test::outputDir("ui")) + "/main_window_empty.png";
        QVERIFY(window.grab().save(path));
        QVERIFY(QFileInfo(path).size() > 0);
    }
};

QTEST_MAIN(MainWindowTest)
#include "test_main_window.moc"
