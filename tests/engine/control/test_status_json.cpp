// The status answer of the control API: DM's query-status names where DM has the field, every point,
// every table point with its ahead-of-global flag, the failed event in full.
#include <QtTest>

#include "engine/control/status_json.h"
#include "engine/control/status_json_reader.h"
#include "tests/engine/control/sample_status.h"

using namespace syncscope;

class StatusJsonTest : public QObject {
    Q_OBJECT

private slots:
    void dmNamedFieldsCarryThePersistedGlobalPointAndTheUpstream() {
        nlohmann::json json = control::statusJson(test::sampleStatus());
        QCOMPARE(json["stage"].get<std::string>(), std::string("Error"));
        QCOMPARE(json["master_binlog"].get<std::string>(), std::string("(mysql-bin.000002, 4200)"));
        QCOMPARE(json["master_binlog_gtid"].get<std::string>(), std::string("0-1-17"));
        // syncer_binlog is the PERSISTED global point (where a resume starts), not the in-memory one.
        QCOMPARE(json["syncer_binlog"].get<std::string>(), std::string("(mysql-bin.000002, 2500)"));
        QCOMPARE(json["syncer_binlog_gtid"].get<std::string>(), std::string("0-1-10"));
        QCOMPARE(json["seconds_behind_master"].get<int64_t>(), int64_t{4});
        QCOMPARE(json["total_rows"].get<uint64_t>(), uint64_t{10});
        QCOMPARE(json["total_rps"].get<int64_t>(), int64_t{0});
        QCOMPARE(json["recent_rps"].get<int64_t>(), int64_t{3});
        QCOMPARE(json["synced"].get<bool>(), false);
        QCOMPARE(json["task"].get<std::string>(), std::string("foo-task"));
        QCOMPARE(json["taken_at"].get<std::string>(), std::string("2026-11-29T21:00:00.250Z"));
    }

    // The binlog connection's state, as a remote engine's status carries it to the GUI and back.
    void theBinlogConnectionIsGivenAndReadBack_data() {
        QTest::addColumn<bool>("connected");
        QTest::addColumn<bool>("reconnecting");
        QTest::addColumn<QString>("state");
        QTest::addRow("connecting") << false << false << "connecting";
        QTest::addRow("reading") << true << false << "reading";
        QTest::addRow("reconnecting") << false << true << "reconnecting";
    }
    void theBinlogConnectionIsGivenAndReadBack() {
        QFETCH(bool, connected);
        QFETCH(bool, reconnecting);
        QFETCH(QString, state);
        task::StatusSnapshot status = test::sampleStatus();
        status.stream = {connected,
                         reconnecting,
                         reconnecting ? 4 : 0,
                         reconnecting ? "Can't connect [2002]" : "",
                         7,
                         "lost at mysql-bin.000002:4100: Lost connection [2013]"};
        nlohmann::json json = control::statusJson(status);
        const nlohmann::json& stream = json["binlog_stream"];
        QCOMPARE(QString::fromStdString(stream["state"].get<std::string>()), state);
        QCOMPARE(stream["attempt"].get<int>(), reconnecting ? 4 : 0);
        QCOMPARE(stream["reconnects"].get<uint64_t>(), uint64_t{7});
        task::StatusSnapshot back = control::statusFromJson(json);
        QCOMPARE(back.stream.connected, connected);
        QCOMPARE(back.stream.reconnecting, reconnecting);
        QCOMPARE(back.stream.attempt, status.stream.attempt);
        QCOMPARE(back.stream.lastError, status.stream.lastError);
        QCOMPARE(back.stream.reconnects, uint64_t{7});
        QCOMPARE(back.stream.lastCut, status.stream.lastCut);
    }

    void everyPointIsGivenWithItsAxisPosition_data() {
        QTest::addColumn<QString>("point");
        QTest::addColumn<QString>("file");
        QTest::addColumn<qulonglong>("pos");
        QTest::addColumn<QString>("gtid");
        QTest::addColumn<qlonglong>("axis");  // -1: not on the axis
        QTest::addRow("upstream") << "upstream"
                                  << "mysql-bin.000002" << 4200ULL << "0-1-17" << 5200LL;
        QTest::addRow("read") << "read"
                              << "mysql-bin.000002" << 4100ULL << "0-1-16" << 5100LL;
        QTest::addRow("applied") << "applied"
                                 << "mysql-bin.000002" << 3000ULL << "0-1-12" << 4000LL;
        QTest::addRow("global in memory") << "global_in_memory"
                                          << "mysql-bin.000002" << 3000ULL << "0-1-12" << 4000LL;
        QTest::addRow("global persisted") << "global_persisted"
                                          << "mysql-bin.000002" << 2500ULL << "0-1-10" << 3500LL;
        QTest::addRow("exit safe off the axis") << "exit_safe"
                                                << "mysql-bin.000002" << 9000ULL << "" << -1LL;
    }

    void everyPointIsGivenWithItsAxisPosition() {
        QFETCH(QString, point);
        QFETCH(QString, file);
        QFETCH(qulonglong, pos);
        QFETCH(QString, gtid);
        QFETCH(qlonglong, axis);
        nlohmann::json json = control::statusJson(test::sampleStatus())["points"][point.toStdString()];
        QCOMPARE(json["binlog_name"].get<std::string>(), file.toStdString());
        QCOMPARE(json["binlog_pos"].get<uint64_t>(), static_cast<uint64_t>(pos));
        QCOMPARE(json["binlog_gtid"].get<std::string>(), gtid.toStdString());
        if (axis < 0) {
            QVERIFY(json["axis_bytes"].is_null());
        } else {
            QCOMPARE(json["axis_bytes"].get<int64_t>(), static_cast<int64_t>(axis));
        }
    }

    void unknownPointIsNull() {
        task::StatusSnapshot status;
        nlohmann::json json = control::statusJson(status);
        QVERIFY(json["points"]["global_persisted"].is_null());
        QCOMPARE(json["syncer_binlog"].get<std::string>(), std::string());
        QCOMPARE(json["stage"].get<std::string>(), std::string("New"));
        QVERIFY(json["failed_event"].is_null());
        QVERIFY(json["last_flush"]["at"].is_null());
    }

    void tablePointsInMemoryAndPersistedWithTheAheadFlag() {
        nlohmann::json tables = control::statusJson(test::sampleStatus())["tables"];
        QCOMPARE(tables.size(), size_t{2});
        QCOMPARE(tables[0]["schema"].get<std::string>(), std::string("test"));
        QCOMPARE(tables[0]["ahead_of_global"].get<bool>(), false);
        QCOMPARE(tables[0]["in_memory"]["binlog_pos"].get<uint64_t>(), uint64_t{2400});
        QCOMPARE(tables[0]["bytes_from_global"].get<int64_t>(), int64_t{-100});
        QCOMPARE(tables[1]["table"].get<std::string>(), std::string("back\\slash\nnew line"));
        QCOMPARE(tables[1]["ahead_of_global"].get<bool>(), true);
        QVERIFY(tables[1]["in_memory"].is_null());
        QCOMPARE(tables[1]["persisted"]["binlog_pos"].get<uint64_t>(), uint64_t{2900});
        QCOMPARE(tables[1]["rows_unmatched"].get<uint64_t>(), uint64_t{2});
        QCOMPARE(tables[0]["rows_unmatched"].get<uint64_t>(), uint64_t{0});
        QCOMPARE(tables[1]["events_from_global"].get<uint64_t>(), uint64_t{2});
        QCOMPARE(control::statusJson(test::sampleStatus())["tables_ahead_of_global"].get<size_t>(), size_t{1});
        nlohmann::json online = control::statusJson(test::sampleStatus())["online_schema_changes"];
        QCOMPARE(online.size(), size_t{1});
        QCOMPARE(online[0]["schema"].get<std::string>(), std::string("test"));
        QCOMPARE(online[0]["table"].get<std::string>(), std::string("orders"));
        QCOMPARE(online[0]["shadow_table"].get<std::string>(), std::string("_orders_new"));
        QCOMPARE(online[0]["tool"].get<std::string>(), std::string("pt-online-schema-change"));
        QCOMPARE(online[0]["rows_copied"].get<uint64_t>(), uint64_t{4200});
        QCOMPARE(online[0]["ddls"].size(), size_t{1});
        QCOMPARE(online[0]["since"].get<std::string>(), std::string("mysql-bin.000001:900"));
    }

    void failedEventIsGivenInFull() {
        nlohmann::json failed = control::statusJson(test::sampleStatus())["failed_event"];
        QCOMPARE(failed["position"]["text"].get<std::string>(), std::string("mysql-bin.000002:3100"));
        QCOMPARE(failed["position"]["binlog_gtid"].get<std::string>(), std::string("0-1-13"));
        QCOMPARE(failed["schema"].get<std::string>(), std::string("test"));
        QCOMPARE(failed["operation"].get<std::string>(), std::string("insert"));
        QCOMPARE(failed["columns"].size(), size_t{4});
        QCOMPARE(failed["after"][0][0].get<std::string>(), std::string("2"));
        QVERIFY(failed["after"][0][2].is_null());
        QCOMPARE(failed["before"].size(), size_t{0});
        QCOMPARE(failed["error_code"].get<int>(), 1054);
        QVERIFY(failed["sql"].get<std::string>().starts_with("INSERT INTO `test`.`test1`"));
        QCOMPARE(failed["error_class"].get<std::string>(), std::string("needs the DBA"));
        QCOMPARE(failed["hint"].get<std::string>(), std::string("ALTER TABLE `test`.`test1` ADD `c4` INT"));
    }

    void safeModeQueuesAndLastFlush() {
        nlohmann::json json = control::statusJson(test::sampleStatus());
        QCOMPARE(json["safe_mode"].get<bool>(), true);
        QCOMPARE(json["queues"]["read"].get<uint64_t>(), uint64_t{5});
        QCOMPARE(json["queues"]["workers"][0].get<uint64_t>(), uint64_t{1});
        QCOMPARE(json["queues"]["workers_bytes"].get<uint64_t>(), uint64_t{4096});
        QCOMPARE(json["catch_up"]["behind_bytes"].get<uint64_t>(), uint64_t{1 << 20});
        QCOMPARE(json["catch_up"]["applied_bytes_per_second"].get<double>(), 4096.0);
        QCOMPARE(json["catch_up"]["eta_seconds"].get<double>(), 341.3);
        QCOMPARE(json["apply_concurrency"]["busy"].get<uint64_t>(), uint64_t{3});
        QCOMPARE(json["apply_concurrency"]["allowed"].get<uint64_t>(), uint64_t{4});
        QCOMPARE(json["apply_concurrency"]["ceiling"].get<uint64_t>(), uint64_t{16});
        QCOMPARE(json["apply_concurrency"]["adaptive"].get<bool>(), true);
        QCOMPARE(json["apply_concurrency"]["changes"].get<uint64_t>(), uint64_t{5});
        QCOMPARE(json["apply_concurrency"]["reason"].get<std::string>(),
                 std::string("4 at once gave +12% rows/s over 3"));
        QCOMPARE(json["last_flush"]["at"].get<std::string>(), std::string("2026-11-29T21:00:00.250Z"));
        QCOMPARE(json["last_flush"]["duration_ms"].get<double>(), 12.5);
        QCOMPARE(json["lag_seconds"].get<double>(), 3.6);
    }

    void syncedWhenThePersistedGlobalPointReachedTheUpstream() {
        task::StatusSnapshot status = test::sampleStatus();
        status.globalPersisted = status.upstream;
        QCOMPARE(control::statusJson(status)["synced"].get<bool>(), true);
    }
};

QTEST_GUILESS_MAIN(StatusJsonTest)
#include "test_status_json.moc"
