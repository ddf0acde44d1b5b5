// Recent tasks are told apart: two task files of one name show as much of their folders as differs,
// one task file with two source files shows the sources, and nothing grows when names are unique.
#include <QtTest>

#include "ui/models/recent_tasks.h"

using namespace syncscope::ui;

class RecentTasksTest : public QObject {
    Q_OBJECT

private slots:
    void labelsTellEveryEntryApart() {
        const QStringList entries{
            recentTaskEntry("/home/dba/demo/a/demo-task.yaml", "/home/dba/demo/a/source.yaml"),
            recentTaskEntry("/home/dba/demo/b/demo-task.yaml", "/home/dba/demo/b/source.yaml"),
            recentTaskEntry("/srv/tasks/orders.yaml", "/srv/tasks/eu-source.yaml"),
            recentTaskEntry("/srv/tasks/orders.yaml", "/srv/tasks/us-source.yaml"),
            recentTaskEntry("/srv/tasks/billing.yaml", "/srv/tasks/source.yaml"),
            "not an entry",
        };
        QList<RecentTask> tasks = recentTasksOf(entries);
        QCOMPARE(tasks.size(), 5);
        QCOMPARE(tasks[0].label, QStringLiteral("demo-task.yaml (a)"));
        QCOMPARE(tasks[1].label, QStringLiteral("demo-task.yaml (b)"));
        QCOMPARE(tasks[2].label, QStringLiteral("orders.yaml \u00b7 eu-source.yaml"));
        QCOMPARE(tasks[3].label, QStringLiteral("orders.yaml \u00b7 us-source.yaml"));
        QCOMPARE(tasks[4].label, QStringLiteral("billing.yaml"));
        QVERIFY(tasks[0].toolTip.contains("/home/dba/demo/a/source.yaml"));
        QCOMPARE(tasks[2].entry, entries[2]);
    }

    void deeperFoldersWhenTheNearestOnesAreEqual() {
        QList<RecentTask> tasks = recentTasksOf(
            {recentTaskEntry("/x/prod/cfg/t.yaml", "/x/s.yaml"), recentTaskEntry("/x/test/cfg/t.yaml", "/x/s.yaml")});
        QCOMPARE(tasks[0].label, QStringLiteral("t.yaml (prod/cfg)"));
        QCOMPARE(tasks[1].label, QStringLiteral("t.yaml (test/cfg)"));
    }
};

QTEST_GUILESS_MAIN(RecentTasksTest)
#include "test_recent_tasks.moc"
