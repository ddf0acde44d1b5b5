// The status JSON of the control API read back into a snapshot (how the GUI shows a remote engine):
// every field the views use survives the round trip; missing keys keep defaults; a wrong type or an
// unknown stage is an error naming the key.
#include <QtTest>

#include "engine/control/status_json.h"
#include "engine/control/status_json_reader.h"
#include "tests/engine/control/sample_status.h"

using namespace syncscope;

class StatusJsonReaderTest : public QObject {
    Q_OBJECT

private slots:
    void roundTripKeepsWhatTheViewsShow() {
        task::StatusSnapshot original = test::sampleStatus();
        original.stopPoint = "mariadb-bin.000002:4000";
        original.safeModeReason = "replaying after an unclean stop";
        QVERIFY(!original.tables.empty());
        original.tables.front().rowsUnmatched = 3;
        task::StatusSnapshot read = control::statusFromJson(control::statusJson(original));
        QCOMPARE(read.sequence, original.sequence);
        QCOMPARE(read.takenAt, original.takenAt);
        QCOMPARE(read.taskName, original.taskName);
        QCOMPARE(read.stage, original.stage);
        QCOMPARE(read.stopPoint, original.stopPoint);
        QCOMPARE(read.safeModeReason, original.safeModeReason);
        QCOMPARE(read.upstream.text(), original.upstream.text());
        QCOMPARE(read.upstream.axis, original.upstream.axis);
        QCOMPARE(read.globalPersisted.gtid, original.globalPersisted.gtid);
        QCOMPARE(read.upstreamFiles.size(), original.upstreamFiles.size());
        QCOMPARE(read.tables.size(), original.tables.size());
        for (size_t i = 0; i < read.tables.size(); ++i) {
            QCOMPARE(read.tables[i].table, original.tables[i].table);
            QCOMPARE(read.tables[i].persisted.axis, original.tables[i].persisted.axis);
            QCOMPARE(read.tables[i].aheadOfGlobal, original.tables[i].aheadOfGlobal);
            QCOMPARE(read.tables[i].bytesFromGlobal, original.tables[i].bytesFromGlobal);
            QCOMPARE(read.tables[i].rowsUnmatched, original.tables[i].rowsUnmatched);
        }
        QCOMPARE(read.lagSeconds, original.lagSeconds);
        QCOMPARE(read.workerQueueDepths, original.workerQueueDepths);
        QVERIFY(read.failedEvent.has_value());
        QCOMPARE(read.failedEvent->errorCode, original.failedEvent->errorCode);
        QCOMPARE(read.failedEvent->columns, original.failedEvent->columns);
        QCOMPARE(read.failedEvent->after.size(), original.failedEvent->after.size());
        QCOMPARE(read.lastError, original.lastError);
        // A running online schema change reads back whole (the remote engine's GUI shows it as the local one).
        QVERIFY(!original.onlineChanges.empty());
        QVERIFY(read.onlineChanges == original.onlineChanges);
    }

    void missingKeysKeepDefaults() {
        task::StatusSnapshot read = control::statusFromJson(nlohmann::json{{"stage", "Paused"}});
        QCOMPARE(read.stage, task::Stage::Paused);
        QVERIFY(!read.upstream.known());
        QVERIFY(read.tables.empty());
    }

    void wrongTypesAndStagesNameTheKey_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("named");
        QTest::addRow("stage unknown") << R"({"stage": "Sleeping"})"
                                       << "Sleeping";
        QTest::addRow("lag as text") << R"({"lag_seconds": "slow"})"
                                     << "lag_seconds";
        QTest::addRow("not an object") << R"([1, 2])"
                                       << "not an object";
    }

    void wrongTypesAndStagesNameTheKey() {
        QFETCH(QString, json);
        QFETCH(QString, named);
        try {
            control::statusFromJson(nlohmann::json::parse(json.toStdString()));
            QFAIL("accepted");
        } catch (const std::exception& e) {
            QVERIFY2(std::string(e.what()).find(named.toStdString()) != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(StatusJsonReaderTest)
#include "test_status_json_reader.moc"
