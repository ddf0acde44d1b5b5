// SHOW ALL SLAVES STATUS read by column name (any column order, multi-source rows), the stage a channel
// is shown in for each combination of thread states and errors, the points on the master's ruler, and the
// pieces of SQL built from a DBA's input (connection names quoted, end_log_pos found in the error).
#include <QtTest>

#include "engine/replica/replica_channel.h"
#include "engine/replica/replica_channel_status.h"

using namespace syncscope;
using namespace syncscope::replica;

Q_DECLARE_METATYPE(syncscope::task::Stage)

namespace {

const std::vector<std::string> kColumns = {"Connection_name",
                                           "Slave_IO_State",
                                           "Master_Host",
                                           "Master_User",
                                           "Master_Port",
                                           "Master_Log_File",
                                           "Read_Master_Log_Pos",
                                           "Relay_Master_Log_File",
                                           "Slave_IO_Running",
                                           "Slave_SQL_Running",
                                           "Last_SQL_Errno",
                                           "Last_SQL_Error",
                                           "Exec_Master_Log_Pos",
                                           "Seconds_Behind_Master",
                                           "Last_IO_Errno",
                                           "Last_IO_Error",
                                           "Using_Gtid",
                                           "Gtid_IO_Pos",
                                           "Slave_SQL_Running_State",
                                           "Gtid_Slave_Pos"};

source::Row row(const std::string& name, const std::string& io, const std::string& sql, int sqlErrno,
                const std::string& sqlError, std::optional<std::string> behind) {
    return {name,
            "Waiting for master to send event",
            "10.0.0.7",
            "repl",
            "3306",
            "bin.000003",
            "9000",
            "bin.000003",
            io,
            sql,
            std::to_string(sqlErrno),
            sqlError,
            "7000",
            behind,
            "0",
            "",
            "Slave_Pos",
            "0-1-90",
            "Slave has read all relay log",
            "0-1-80"};
}

}  // namespace

class ReplicaChannelStatusTest : public QObject {
    Q_OBJECT

private slots:
    void everyChannelOfAMultiSourceReplicaIsReadByColumnName() {
        auto channels = channelsFromRows(
            kColumns, {row("", "Yes", "Yes", 0, "", "3"), row("eu's", "Yes", "No", 1032, "x, end_log_pos 812", {})});
        QCOMPARE(channels.size(), size_t(2));
        QCOMPARE(channels[0].connectionName, std::string());
        QCOMPARE(channels[0].masterPort, 3306);
        QCOMPARE(channels[0].readPos, uint64_t(9000));
        QCOMPARE(channels[0].execPos, uint64_t(7000));
        QCOMPARE(channels[0].secondsBehindMaster, std::optional<int64_t>(3));
        QCOMPARE(channels[0].gtidIoPos, std::string("0-1-90"));
        QCOMPARE(channels[1].connectionName, std::string("eu's"));
        QCOMPARE(channels[1].lastSqlErrno, 1032);
        QVERIFY(!channels[1].secondsBehindMaster);
        QCOMPARE(failedEventEndPos(channels[1].lastSqlError), std::optional<uint64_t>(812));
        QCOMPARE(failedEventEndPos("no position here"), std::nullopt);
    }

    void aNumberThatIsNotOneNamesItsColumn() {
        auto bad = row("", "Yes", "Yes", 0, "", "soon");
        try {
            channelsFromRows(kColumns, {bad});
            QFAIL("parsed 'soon' as a number");
        } catch (const std::exception& e) {
            QVERIFY2(std::string(e.what()).find("Seconds_Behind_Master") != std::string::npos, e.what());
        }
    }

    void connectionNamesAreQuotedAsSqlLiterals() {
        QCOMPARE(connectionLiteral(""), std::string("''"));
        QCOMPARE(connectionLiteral("eu's"), std::string("'eu\\'s'"));
        QCOMPARE(connectionLiteral("a\\b"), std::string("'a\\\\b'"));
    }

    void stageFollowsTheThreadsAndErrors_data() {
        QTest::addColumn<QString>("io");
        QTest::addColumn<QString>("sql");
        QTest::addColumn<int>("sqlErrno");
        QTest::addColumn<syncscope::task::Stage>("stage");
        QTest::addRow("both threads running") << "Yes"
                                              << "Yes" << 0 << task::Stage::Running;
        QTest::addRow("SQL thread stopped on an error") << "Yes"
                                                        << "No" << 1032 << task::Stage::Error;
        QTest::addRow("both stopped by STOP SLAVE") << "No"
                                                    << "No" << 0 << task::Stage::Stopped;
        QTest::addRow("only the SQL thread stopped") << "Yes"
                                                     << "No" << 0 << task::Stage::Paused;
        QTest::addRow("IO thread connecting") << "Connecting"
                                              << "Yes" << 0 << task::Stage::Paused;
    }

    void stageFollowsTheThreadsAndErrors() {
        QFETCH(QString, io);
        QFETCH(QString, sql);
        QFETCH(int, sqlErrno);
        QFETCH(syncscope::task::Stage, stage);
        ReplicaServerState state;
        state.channels = channelsFromRows(
            kColumns, {row("", io.toStdString(), sql.toStdString(), sqlErrno, sqlErrno ? "failed" : "", "0")});
        MasterView master;
        master.position = binlog::BinlogPosition("bin.000003", 9500);
        master.files = {{"bin.000002", 1000}, {"bin.000003", 9500}};
        master.axis = binlog::PositionAxis(master.files);
        state.masters["10.0.0.7:3306"] = master;
        task::StatusSnapshot s = channelSnapshot(state, "", "root@replica:3306");
        QCOMPARE(s.stage, stage);
        // One ruler: the master's position, what the IO thread read, what the SQL thread executed.
        QCOMPARE(s.upstream.axis, std::optional<uint64_t>(10500));
        QCOMPARE(s.read.axis, std::optional<uint64_t>(10000));
        QCOMPARE(s.applied.axis, std::optional<uint64_t>(8000));
        QCOMPARE(s.applied.gtid, std::string("0-1-80"));
        QCOMPARE(s.sourceId, std::string("10.0.0.7:3306"));
        QCOMPARE(s.lastError.empty(), sqlErrno == 0);
    }

    void aChannelThatIsGoneOrAServerThatIsLostSaysSo() {
        ReplicaServerState state;
        state.error = "replica root@10.0.0.9:3306 unreachable: connect timed out";
        task::StatusSnapshot s = channelSnapshot(state, "eu", "root@10.0.0.9:3306");
        QCOMPARE(s.stage, task::Stage::Error);
        QVERIFY(s.lastError.find("unreachable") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(ReplicaChannelStatusTest)
#include "test_replica_channel_status.moc"
