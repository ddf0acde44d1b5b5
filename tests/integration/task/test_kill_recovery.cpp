// docs/design.md invariant 7: `syncscope-cli run` killed with SIGKILL ten times at random moments during a
// sysbench write workload and restarted each time (every other run with multiple-rows: merged batches), in position
// mode and in GTID mode (enable-gtid: the resume starts from the persisted GTID set), and once with a table
// without any key (applied marks, engine/apply/applied_marks.h); afterwards
// every table equals its upstream twin (CHECKSUM TABLE and row counts). What makes it hold: the checkpoint never covers
// uncommitted rows, and the exit-safe high-water mark keeps safe mode on over every event that may have been applied.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <chrono>
#include <functional>
#include <random>
#include <thread>

#include "engine/common/server_settings.h"
#include "engine/source/upstream_connection.h"
#include "tests/support/task_files.h"
#include "tests/support/test_env.h"

using syncscope::source::UpstreamConnection;

namespace {

constexpr int kKills = 10;
constexpr int kTables = 4;
constexpr int kTableSize = 2000;
constexpr int kWorkloadSeconds = 45;

std::string valueOf(UpstreamConnection& connection, const std::string& sql) {
    try {
        return connection.queryValue(sql).value_or("NULL");
    } catch (const std::exception& e) {
        return std::string("ERROR: ") + e.what();
    }
}

QStringList sysbenchArgs(const char* command) {
    auto up = syncscope::test::upstreamRoot();
    return {QStringLiteral("oltp_write_only"),
            QStringLiteral("--db-driver=mysql"),
            QStringLiteral("--mysql-host=127.0.0.1"),
            QStringLiteral("--mysql-port=%1").arg(up.port),
            QStringLiteral("--mysql-user=%1").arg(QString::fromStdString(up.user)),
            QStringLiteral("--mysql-password=%1").arg(QString::fromStdString(up.password)),
            QStringLiteral("--mysql-db=sbkill"),
            QStringLiteral("--tables=%1").arg(kTables),
            QStringLiteral("--table-size=%1").arg(kTableSize),
            QStringLiteral("--threads=2"),
            QStringLiteral("--rate=100"),
            QStringLiteral("--time=%1").arg(kWorkloadSeconds),
            QString::fromLatin1(command)};
}

}  // namespace

class KillRecoveryTest : public QObject {
    Q_OBJECT

private slots:
    void tablesEqualUpstreamAfterTenSigkillsDuringSysbench_data() {
        QTest::addColumn<bool>("gtidMode");
        QTest::addColumn<bool>("keyless");
        QTest::addRow("position_mode") << false << false;
        QTest::addRow("gtid_mode") << true << false;
        // sbtest1 without any key (its id only indexed): safe mode cannot make a replayed row of it
        // idempotent, so only the applied marks keep its rows from doubling or hitting a second equal row.
        QTest::addRow("keyless_table_position_mode") << false << true;
    }

    void tablesEqualUpstreamAfterTenSigkillsDuringSysbench() {
        QFETCH(bool, gtidMode);
        QFETCH(bool, keyless);
        UpstreamConnection up(syncscope::test::engineSettings(syncscope::test::upstreamRoot()));
        UpstreamConnection down(syncscope::test::engineSettings(syncscope::test::downstreamRoot()));
        for (UpstreamConnection* server : {&up, &down}) {
            server->execute("SET SESSION sql_log_bin = 0");
            server->execute("DROP DATABASE IF EXISTS sbkill");
            server->execute("CREATE DATABASE sbkill");
            server->execute("SET SESSION sql_log_bin = 1");
        }
        down.execute("DROP DATABASE IF EXISTS dm_meta");
        auto master = up.query("SHOW MASTER STATUS");

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        syncscope::test::TaskFileOptions options;
        options.name = "kill-task";
        options.binlogName = *master.front()[0];
        options.binlogPos = std::stoull(*master.front()[1]);
        options.gtidMode = gtidMode;
        if (gtidMode) {
            options.binlogGtid = valueOf(up, "SELECT @@gtid_binlog_pos");
        }
        options.instanceExtra = "    block-allow-list: \"only-sbkill\"\n";
        options.topLevelExtra = "block-allow-list:\n  only-sbkill: {do-dbs: [\"sbkill\"]}\n";
        auto files = syncscope::test::writeTaskFiles(dir.path().toStdString(), options);
        QStringList runArgs{QStringLiteral("run"),       QString::fromStdString(files.task),
                            QStringLiteral("--source"),  QString::fromStdString(files.source),
                            QStringLiteral("--log-dir"), dir.filePath(QStringLiteral("logs"))};
        const QString cli = QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli");

        QProcess prepare;
        prepare.start(QStringLiteral("sysbench"), sysbenchArgs("prepare"));
        QVERIFY2(prepare.waitForFinished(120000) && prepare.exitCode() == 0,
                 prepare.readAllStandardError().constData());
        if (keyless) {
            up.execute("ALTER TABLE sbkill.sbtest1 MODIFY id INT NOT NULL, DROP PRIMARY KEY, ADD INDEX id_only (id)");
        }
        QProcess workload;
        workload.start(QStringLiteral("sysbench"), sysbenchArgs("run"));
        QVERIFY(workload.waitForStarted());

        std::mt19937 random(20261129);
        std::uniform_int_distribution<int> lifetimeMs(700, 3500);
        for (int kill = 0; kill < kKills; ++kill) {
            // Every other run merges its batches (multiple-rows: key rounds, upserts, REPLACE in safe
            // mode), so that both ways of applying recover from each other's kills.
            options.multipleRows = kill % 2 == 1;
            syncscope::test::writeTaskFiles(dir.path().toStdString(), options);
            QProcess run;
            run.start(cli, runArgs);
            QVERIFY(run.waitForStarted());
            std::this_thread::sleep_for(std::chrono::milliseconds(lifetimeMs(random)));
            QVERIFY2(run.state() == QProcess::Running, run.readAllStandardError().constData());
            run.kill();  // SIGKILL
            QVERIFY(run.waitForFinished());
        }
        QVERIFY(workload.waitForFinished((kWorkloadSeconds + 60) * 1000));
        QCOMPARE(workload.exitCode(), 0);

        // A last run catches up (merging); then every table must equal its upstream twin.
        options.multipleRows = true;
        syncscope::test::writeTaskFiles(dir.path().toStdString(), options);
        QProcess last;
        last.start(cli, runArgs);
        QVERIFY(last.waitForStarted());
        auto checksums = [&](UpstreamConnection& server) {
            std::string all;
            for (int t = 1; t <= kTables; ++t) {
                std::string table = "sbkill.sbtest" + std::to_string(t);
                all += valueOf(server, "SELECT COUNT(*) FROM " + table) + "/";
                try {
                    all += server.query("CHECKSUM TABLE " + table).front()[1].value_or("NULL") + ";";
                } catch (const std::exception& e) {
                    all += std::string("ERROR ") + e.what();
                }
            }
            return all;
        };
        std::string upstream = checksums(up);
        bool equal = false;
        auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
        while (!equal && std::chrono::steady_clock::now() < deadline && last.state() == QProcess::Running) {
            equal = checksums(down) == upstream;
            if (!equal) {
                std::this_thread::sleep_for(std::chrono::milliseconds(500));
            }
        }
        last.terminate();
        QVERIFY(last.waitForFinished(30000));
        QVERIFY2(equal, ("downstream " + checksums(down) + " != upstream " + upstream + "\n" +
                         last.readAllStandardError().right(3000).toStdString())
                            .c_str());
        QCOMPARE(last.exitCode(), 0);
    }
};

QTEST_GUILESS_MAIN(KillRecoveryTest)
#include "test_kill_recovery.moc"
