// task-mode all with sysbench writing upstream during the whole load: the load reads one snapshot,
// incremental replication continues from that snapshot's exact point in safe mode until every chunk's
// point is passed, and once the writes stop every table equals its upstream twin (CHECKSUM TABLE).
// In position mode and in GTID mode, and in GTID mode with SIGKILLs while chunks are copied: the restarts
// copy the remaining chunks under later snapshots, so the chunks come from several snapshots, incremental
// starts at the earliest and safe mode covers up to the latest.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <chrono>
#include <thread>
#include <utility>

#include "engine/source/upstream_connection.h"
#include "tests/integration/load/load_fixture.h"
#include "tests/support/test_env.h"

using syncscope::source::UpstreamConnection;

namespace {

constexpr int kTables = 2;
constexpr int kTableSize = 10000;
constexpr int kWorkloadSeconds = 12;
constexpr int kChunkRows = 1000;
constexpr int kThreads = 2;
constexpr int kCatchUpSeconds = 90;
constexpr int kPollMs = 5;  // how often the loader checkpoint is read while waiting for a kill moment

QStringList sysbenchArgs(const char* command) {
    auto up = syncscope::test::upstreamRoot();
    return {QStringLiteral("oltp_write_only"),
            QStringLiteral("--db-driver=mysql"),
            QStringLiteral("--mysql-host=127.0.0.1"),
            QStringLiteral("--mysql-port=%1").arg(up.port),
            QStringLiteral("--mysql-user=%1").arg(QString::fromStdString(up.user)),
            QStringLiteral("--mysql-password=%1").arg(QString::fromStdString(up.password)),
            QStringLiteral("--mysql-db=sbload"),
            QStringLiteral("--tables=%1").arg(kTables),
            QStringLiteral("--table-size=%1").arg(kTableSize),
            QStringLiteral("--threads=2"),
            QStringLiteral("--rate=100"),
            QStringLiteral("--time=%1").arg(kWorkloadSeconds),
            QString::fromLatin1(command)};
}

std::string checksums(UpstreamConnection& server) {
    std::string all;
    for (int t = 1; t <= kTables; ++t) {
        std::string table = "sbload.sbtest" + std::to_string(t);
        try {
            all += server.queryValue("SELECT COUNT(*) FROM " + table).value_or("NULL") + "/" +
                   server.query("CHECKSUM TABLE " + table).front()[1].value_or("NULL") + ";";
        } catch (const std::exception& e) {
            all += std::string("ERROR ") + e.what() + ";";
        }
    }
    return all;
}

// Chunks in the task's plan and chunks done; {0, 0} before the plan exists.
std::pair<int, int> chunksDone(UpstreamConnection& down, const std::string& task) {
    try {
        auto row =
            down.query("SELECT COUNT(*), COALESCE(SUM(done), 0) FROM dm_meta.`" + task + "_loader_checkpoint`").front();
        return {std::stoi(*row[0]), std::stoi(*row[1])};
    } catch (const std::exception&) {
        return {0, 0};
    }
}

}  // namespace

class LoadThenSyncTest : public QObject {
    Q_OBJECT

private slots:
    void tablesEqualAfterLoadUnderWritesThenIncremental_data() {
        QTest::addColumn<bool>("gtidMode");
        QTest::addColumn<int>("kills");
        QTest::addRow("position mode") << false << 0;
        QTest::addRow("gtid mode") << true << 0;
        QTest::addRow("gtid mode, 3 SIGKILLs while chunks are copied") << true << 3;
    }

    void tablesEqualAfterLoadUnderWritesThenIncremental() {
        QFETCH(bool, gtidMode);
        QFETCH(int, kills);
        UpstreamConnection up(syncscope::test::engineSettings(syncscope::test::upstreamRoot()));
        UpstreamConnection down(syncscope::test::engineSettings(syncscope::test::downstreamRoot()));
        for (UpstreamConnection* server : {&up, &down}) {
            server->execute("DROP DATABASE IF EXISTS sbload");
        }
        down.execute("DROP DATABASE IF EXISTS dm_meta");
        up.execute("CREATE DATABASE sbload");
        QProcess prepare;
        prepare.start(QStringLiteral("sysbench"), sysbenchArgs("prepare"));
        QVERIFY2(prepare.waitForFinished(120000) && prepare.exitCode() == 0,
                 prepare.readAllStandardError().constData());

        QTemporaryDir dir;
        syncscope::test::TaskFileOptions options;
        options.name = "load-sync";
        options.taskMode = "all";
        options.gtidMode = gtidMode;
        options.multipleRows = true;
        options.instanceExtra = "    block-allow-list: \"only-sbload\"\n";
        options.topLevelExtra = "block-allow-list:\n  only-sbload: {do-dbs: [\"sbload\"]}\n";
        auto files = syncscope::test::writeTaskFiles(dir.path().toStdString(), options);
        const QString logs = dir.filePath(QStringLiteral("logs"));

        QProcess workload;
        workload.start(QStringLiteral("sysbench"), sysbenchArgs("run"));
        QVERIFY(workload.waitForStarted());
        std::this_thread::sleep_for(std::chrono::seconds(1));  // writes are under way before the snapshot
        // Each kill falls when a further share of the chunks is done (read from the loader checkpoint), so
        // it lands while other chunks are being copied whatever the machine's speed.
        int killedMidLoad = 0;
        for (int kill = 0; kill < kills; ++kill) {
            QProcess run;
            syncscope::test::startRun(run, files, logs, kChunkRows, kThreads);
            QVERIFY(run.waitForStarted());
            const double share = static_cast<double>(kill + 1) / (kills + 1);
            auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kCatchUpSeconds);
            std::pair<int, int> progress{0, 0};
            while (std::chrono::steady_clock::now() < deadline) {
                progress = chunksDone(down, "load-sync");
                if (progress.first > 0 && progress.second >= share * progress.first) {
                    break;
                }
                QVERIFY2(!run.waitForFinished(kPollMs), run.readAllStandardError().right(3000).constData());
            }
            run.kill();  // SIGKILL, mid-load
            QVERIFY(run.waitForFinished());
            progress = chunksDone(down, "load-sync");
            killedMidLoad += progress.second > 0 && progress.second < progress.first ? 1 : 0;
        }
        QCOMPARE(killedMidLoad, kills);
        QProcess run;
        syncscope::test::startRun(run, files, logs, kChunkRows, kThreads);
        QVERIFY(run.waitForStarted());
        QVERIFY(workload.waitForFinished((kWorkloadSeconds + 60) * 1000));
        QCOMPARE(workload.exitCode(), 0);

        std::string upstream = checksums(up);
        bool equal = false;
        auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kCatchUpSeconds);
        while (!equal && std::chrono::steady_clock::now() < deadline && run.state() == QProcess::Running) {
            equal = checksums(down) == upstream;
            if (!equal) {
                std::this_thread::sleep_for(std::chrono::milliseconds(500));
            }
        }
        run.terminate();
        QVERIFY(run.waitForFinished(30000));
        QString errors = QString::fromUtf8(run.readAllStandardError());
        QVERIFY2(equal, ("downstream " + checksums(down) + " != upstream " + upstream + "\n" +
                         errors.right(3000).toStdString())
                            .c_str());
        QCOMPARE(run.exitCode(), 0);
        QVERIFY2(errors.contains(QStringLiteral("snapshot load finished")), qPrintable(errors.right(3000)));
        // Each run after a kill read its chunks at a snapshot of its own.
        auto snapshots = down.queryValue(
            "SELECT COUNT(DISTINCT loaded_binlog_name, loaded_binlog_pos) FROM "
            "dm_meta.`load-sync_loader_checkpoint`");
        QVERIFY2(std::stoi(snapshots.value_or("0")) >= (kills > 0 ? 2 : 1), snapshots.value_or("NULL").c_str());
        // The syncer continued from the snapshot's point: the global row moved past it.
        auto global = down.query(
            "SELECT binlog_name, binlog_pos, binlog_gtid FROM dm_meta.`load-sync_syncer_checkpoint` "
            "WHERE is_global = 1");
        QCOMPARE(global.size(), size_t{1});
        if (gtidMode) {
            QVERIFY(!global.front()[2].value_or("").empty());
        }
    }
};

QTEST_GUILESS_MAIN(LoadThenSyncTest)
#include "test_load_then_sync.moc"
