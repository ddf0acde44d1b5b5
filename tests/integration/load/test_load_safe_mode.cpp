// Safe mode after a crashed load (docs/design.md invariant 4): a load killed while chunks are copied goes on
// under a new snapshot, so its chunks come from two snapshots. Incremental replication starts at the
// earlier one and re-applies the events between the two, which the later chunks already hold (an
// INSERT of a row that is already there): safe mode must be on until the later snapshot is passed. With
// `safe-mode-duration: "0s"` the switch is refused with an error naming both snapshots, nothing is
// written, and once the setting is removed the next start goes on from the same plan and ends equal.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <httplib.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <string>

#include "engine/source/upstream_connection.h"
#include "tests/integration/load/load_fixture.h"
#include "tests/support/test_env.h"

using nlohmann::json;
using syncscope::source::UpstreamConnection;

namespace {

constexpr int kRows = 60000;
constexpr int kChunkRows = 250;  // 240 chunks: prepared bulk INSERTs copy 40 chunks before a 50 ms poll
constexpr int kThreads = 2;
constexpr double kShareDoneAtKill = 0.4;  // chunks are copied in key order: the high keys are still pending
constexpr int kReplayedInserts = 100;
constexpr int kRunTimeoutMs = 120000;
constexpr int kWaitMs = 90000;
constexpr int kPollMs = 5;
constexpr int kHttpOk = 200;
constexpr const char* kTask = "load-safe";

UpstreamConnection connectAsRoot(const syncscope::test::ServerSettings& settings) {
    return UpstreamConnection(syncscope::test::engineSettings(settings));
}

std::pair<int, int> chunksDone(UpstreamConnection& down) {
    try {
        auto row = down.query(std::string("SELECT COUNT(*), COALESCE(SUM(done), 0) FROM dm_meta.`") + kTask +
                              "_loader_checkpoint`")
                       .front();
        return {std::stoi(*row[0]), std::stoi(*row[1])};
    } catch (const std::exception&) {
        return {0, 0};
    }
}

std::string tableSum(UpstreamConnection& server) {
    return server.queryValue("SELECT COUNT(*) FROM loadsafe.t").value_or("NULL") + "/" +
           server.query("CHECKSUM TABLE loadsafe.t").front()[1].value_or("NULL");
}

json status(int port) {
    httplib::Client client("127.0.0.1", port);
    client.set_read_timeout(std::chrono::seconds(5));
    auto answer = client.Get("/api/v1/status");
    return answer && answer->status == kHttpOk ? json::parse(answer->body, nullptr, false) : json();
}

}  // namespace

class LoadSafeModeTest : public QObject {
    Q_OBJECT

private slots:
    void crashedLoadReplaysInSafeModeUntilItsLatestSnapshot() {
        UpstreamConnection up = connectAsRoot(syncscope::test::upstreamRoot());
        UpstreamConnection down = connectAsRoot(syncscope::test::downstreamRoot());
        for (UpstreamConnection* server : {&up, &down}) {
            server->execute("DROP DATABASE IF EXISTS loadsafe");
        }
        down.execute("DROP DATABASE IF EXISTS dm_meta");
        up.execute("CREATE DATABASE loadsafe");
        up.execute("USE loadsafe");  // the SEQUENCE engine's seq_1_to_N needs a current database
        up.execute("CREATE TABLE loadsafe.t (id INT PRIMARY KEY, v INT NOT NULL, s VARCHAR(32))");
        up.execute("INSERT INTO loadsafe.t SELECT seq, seq, CONCAT('row ', seq) FROM seq_1_to_" +
                   std::to_string(kRows));

        QTemporaryDir dir;
        syncscope::test::TaskFileOptions options;
        options.name = kTask;
        options.taskMode = "all";
        options.workerCount = 2;
        options.multipleRows = true;
        options.instanceExtra = "    block-allow-list: \"only-loadsafe\"\n";
        options.topLevelExtra = "block-allow-list:\n  only-loadsafe: {do-dbs: [\"loadsafe\"]}\n";
        options.syncerExtra = ", safe-mode-duration: \"0s\"";
        auto files = syncscope::test::writeTaskFiles(dir.path().toStdString(), options);
        const QString logs = dir.filePath(QStringLiteral("logs"));

        // 1. SIGKILL while chunks are copied.
        {
            QProcess run;
            syncscope::test::startRun(run, files, logs, kChunkRows, kThreads);
            QVERIFY(run.waitForStarted());
            // Polled without the 50 ms sleep of test::waitFor: the load is fast.
            auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kWaitMs);
            while (std::chrono::steady_clock::now() < deadline) {
                auto [total, done] = chunksDone(down);
                if ((total > 0 && done >= kShareDoneAtKill * total) || run.waitForFinished(kPollMs)) {
                    break;
                }
            }
            QVERIFY2(run.state() == QProcess::Running, "the load ended before the kill");
            run.kill();
            QVERIFY(run.waitForFinished());
            auto [total, done] = chunksDone(down);
            QVERIFY2(done > 0 && done < total, qPrintable(QStringLiteral("%1 of %2 chunks done").arg(done).arg(total)));
        }
        // 2. Writes after the first snapshot: rows of chunks done and of chunks still pending (which the
        // next run reads at a later snapshot, with these rows in them).
        up.execute("INSERT INTO loadsafe.t SELECT " + std::to_string(kRows) +
                   " + seq, seq, 'after the kill' FROM seq_1_to_" + std::to_string(kReplayedInserts));
        up.execute("UPDATE loadsafe.t SET v = v + 1000 WHERE id <= 50");
        up.execute("UPDATE loadsafe.t SET v = -v, s = NULL WHERE id BETWEEN " + std::to_string(kRows - 500) + " AND " +
                   std::to_string(kRows - 400));
        up.execute("DELETE FROM loadsafe.t WHERE id BETWEEN " + std::to_string(kRows - 300) + " AND " +
                   std::to_string(kRows - 290));

        // 3. With safe-mode-duration 0s: the load finishes, the switch is refused, nothing is written.
        {
            QProcess run;
            syncscope::test::startRun(run, files, logs, kChunkRows, kThreads);
            QVERIFY(run.waitForFinished(kRunTimeoutMs));
            QString errors = QString::fromUtf8(run.readAllStandardError());
            QCOMPARE(run.exitCode(), 1);
            QVERIFY2(errors.contains(QStringLiteral("the chunks were read at several snapshots")),
                     qPrintable(errors.right(3000)));
            QVERIFY2(errors.contains(QStringLiteral("`safe-mode-duration` in task.yaml is 0s")),
                     qPrintable(errors.right(3000)));
            auto [total, done] = chunksDone(down);
            QCOMPARE(done, total);
            QCOMPARE(down.queryValue(std::string("SELECT COUNT(*) FROM dm_meta.`") + kTask + "_syncer_checkpoint`"),
                     std::optional<std::string>("0"));
        }
        auto latest = down.query(std::string("SELECT loaded_binlog_name, loaded_binlog_pos FROM dm_meta.`") + kTask +
                                 "_loader_checkpoint` ORDER BY loaded_binlog_name DESC, loaded_binlog_pos DESC LIMIT 1")
                          .front();
        const std::string latestPoint = *latest[0] + ":" + *latest[1];

        // 4. Without the setting: incremental from the earliest snapshot in safe mode until the latest.
        options.syncerExtra.clear();
        files = syncscope::test::writeTaskFiles(dir.path().toStdString(), options);
        const int port = syncscope::test::freeLoopbackPort();
        QProcess run;
        syncscope::test::startRun(run, files, logs, kChunkRows, kThreads, {},
                                  {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port)});
        QVERIFY(run.waitForStarted());
        json atSwitch;
        QVERIFY2(syncscope::test::waitFor(
                     [&] {
                         atSwitch = status(port);
                         return atSwitch.is_object() && atSwitch.value("safe_mode", false);
                     },
                     kWaitMs),
                 qPrintable(run.readAllStandardError().right(3000)));
        QVERIFY2(atSwitch.value("safe_mode_until", std::string()).find(latestPoint) == 0,
                 (atSwitch.dump(2) + "\nexpected until " + latestPoint).c_str());
        // One more write carries the stream past the latest snapshot: safe mode ends there.
        up.execute("INSERT INTO loadsafe.t VALUES (" + std::to_string(2 * kRows) + ", 0, 'past the snapshots')");
        const std::string upstream = tableSum(up);
        QVERIFY2(syncscope::test::waitFor([&] { return tableSum(down) == upstream; }, kWaitMs),
                 (tableSum(down) + " != " + upstream).c_str());
        QVERIFY2(syncscope::test::waitFor([&] { return !status(port).value("safe_mode", true); }, kWaitMs),
                 status(port).dump(2).c_str());
        run.terminate();
        QVERIFY(run.waitForFinished(kRunTimeoutMs));
        QString errors = QString::fromUtf8(run.readAllStandardError());
        QCOMPARE(run.exitCode(), 0);
        QVERIFY2(errors.contains(QStringLiteral("snapshot load finished")), qPrintable(errors.right(3000)));
    }
};

QTEST_GUILESS_MAIN(LoadSafeModeTest)
#include "test_load_safe_mode.moc"
