// The checkpoint table is named as DM names it, and a stored checkpoint is empty only without any row.
#include <QtTest>

#include "engine/checkpoint/checkpoint_point.h"

using namespace syncscope;
using namespace syncscope::checkpoint;

class CheckpointPointTest : public QObject {
    Q_OBJECT

private slots:
    void tableNameIsTaskPlusDmSuffix_data() {
        QTest::addColumn<QString>("task");
        QTest::addColumn<QString>("table");
        QTest::addRow("plain") << "foo-task"
                               << "foo-task_syncer_checkpoint";
        QTest::addRow("backtick and space") << "a `b` c"
                                            << "a `b` c_syncer_checkpoint";
        QTest::addRow("unicode") << "tâche"
                                 << "tâche_syncer_checkpoint";
    }
    void tableNameIsTaskPlusDmSuffix() {
        QFETCH(QString, task);
        QFETCH(QString, table);
        QCOMPARE(QString::fromStdString(checkpointTableName(task.toStdString())), table);
    }

    void emptyOnlyWithoutGlobalAndTableRows() {
        PersistedCheckpoint checkpoint;
        QVERIFY(checkpoint.isEmpty());
        checkpoint.tablePoints.push_back({{"db", "t"}, binlog::Location(binlog::BinlogPosition("bin.000001", 4))});
        QVERIFY(!checkpoint.isEmpty());
        checkpoint.tablePoints.clear();
        checkpoint.hasGlobalRow = true;
        QVERIFY(!checkpoint.isEmpty());
    }

    void dmDefaultsAndLimits() {
        QCOMPARE(std::string(kDefaultMetaSchema), std::string("dm_meta"));
        QCOMPARE(kMaxSourceIdLength, size_t(32));
        QCOMPARE(kMaxStoredBinlogOffset, 4294967295ULL);
        QCOMPARE(std::string(kNoTableInfo), std::string("null"));
    }
};

QTEST_GUILESS_MAIN(CheckpointPointTest)
#include "test_checkpoint_point.moc"
