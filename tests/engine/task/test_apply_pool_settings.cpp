// The apply workers get what the task's syncer settings say: DM's worker-count, batch and queue-size,
// multiple-rows and compact (both on by default here), and one statement per row when the target
// session turns foreign_key_checks on.
#include <QtTest>

#include "engine/task/apply_pool_settings.h"

using namespace syncscope;
using namespace syncscope::task;
using namespace syncscope::config;

class ApplyPoolSettingsTest : public QObject {
    Q_OBJECT

private slots:
    void defaultsAreDmsWithTheFastPathOn() {
        TaskSetup setup;
        setup.taskName = "t";
        setup.sourceId = "s1";
        const apply::WorkerPoolSettings pool = applyPoolSettings(setup);
        QCOMPARE(pool.workerCount, size_t(SyncerSettings::kDefaultWorkerCount));
        QCOMPARE(pool.worker.batch, size_t(SyncerSettings::kDefaultBatch));
        QCOMPARE(pool.worker.queueCapacity, size_t(SyncerSettings::kDefaultQueueSize));
        QVERIFY(pool.worker.multipleRows);
        QVERIFY(pool.worker.compact);
        QVERIFY(pool.adaptiveConcurrency);
        QCOMPARE(pool.worker.appliedMarks.taskName, std::string("t"));
        QCOMPARE(pool.worker.sourceId, std::string("s1"));
    }

    void theTasksSettingsReachTheWorkers() {
        TaskSetup setup;
        setup.syncer.workerCount = 3;
        setup.syncer.batch = 7;
        setup.syncer.queueSize = 256;
        setup.syncer.compact = false;
        setup.adaptiveConcurrency = false;
        setup.downstreamSession = {{"sql_mode", "ANSI_QUOTES"}};
        const apply::WorkerPoolSettings pool = applyPoolSettings(setup);
        QCOMPARE(pool.workerCount, size_t(3));
        QCOMPARE(pool.worker.batch, size_t(7));
        QCOMPARE(pool.worker.queueCapacity, size_t(256));
        QVERIFY(pool.worker.multipleRows);
        QVERIFY(!pool.worker.compact);
        QVERIFY(!pool.adaptiveConcurrency);
        // After the workers' own (time zone and the like), so that the task's win.
        QCOMPARE(pool.sessionVariables.back(), (std::pair<std::string, std::string>{"sql_mode", "ANSI_QUOTES"}));
    }

    void foreignKeyChecksOnKeepOneStatementPerRow_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("on");
        QTest::addRow("1") << "foreign_key_checks"
                           << "1" << true;
        QTest::addRow("ON, any case") << "FOREIGN_KEY_CHECKS"
                                      << "On" << true;
        QTest::addRow("0") << "foreign_key_checks"
                           << "0" << false;
        QTest::addRow("another variable") << "unique_checks"
                                          << "1" << false;
    }
    void foreignKeyChecksOnKeepOneStatementPerRow() {
        QFETCH(QString, name);
        QFETCH(QString, value);
        QFETCH(bool, on);
        TaskSetup setup;
        setup.downstreamSession = {{name.toStdString(), value.toStdString()}};
        QCOMPARE(foreignKeyChecksOn(setup.downstreamSession), on);
        QCOMPARE(applyPoolSettings(setup).worker.multipleRows, !on);
    }
};

QTEST_APPLESS_MAIN(ApplyPoolSettingsTest)
#include "test_apply_pool_settings.moc"
