// A snapshot load killed with SIGKILL at ten random moments and restarted each time finishes with every
// row exactly once: each chunk's rows and its "done" mark in the loader checkpoint commit in one
// transaction, so a chunk is either wholly in and marked or wholly out and copied again. A table without
// a key (rows that repeat) shows a duplicate as a wrong count; a keyed chunk copied twice would fail on
// its key (on-duplicate-logical: error). The moments are drawn from the load's own progress, not from the clock (a fast
// machine would finish before a clock-drawn kill): the first kills fall at a random time while the snapshot, the schema
// and the plan are made, the others when a random number of chunks is done (rising, so that every run gets further),
// which is while other chunks are being copied.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <random>
#include <vector>

#include "engine/source/upstream_connection.h"
#include "tests/integration/load/load_fixture.h"
#include "tests/support/test_env.h"

using syncscope::source::UpstreamConnection;

namespace {

constexpr int kKills = 10;
constexpr int kStartupKills = 3;  // the rest fall while chunks are copied
constexpr int kPollMs = 5;        // how often the loader checkpoint is read while waiting for a kill moment
constexpr int kRunTimeoutSeconds = 120;
constexpr int kRows = 30000;
constexpr int kChunkRows = 1000;
constexpr int kThreads = 2;

}  // namespace

class LoadKillTest : public QObject {
    Q_OBJECT

private slots:
    void everyRowExactlyOnceAfterTenSigkillsDuringTheLoad() {
        UpstreamConnection up(syncscope::test::engineSettings(syncscope::test::upstreamRoot()));
        UpstreamConnection down(syncscope::test::engineSettings(syncscope::test::downstreamRoot()));
        syncscope::test::createLoadSource(up, down, kRows);
        QTemporaryDir dir;
        // on-duplicate-logical error (the default is replace, as DM's): a keyed chunk copied twice fails.
        auto options = syncscope::test::loadTaskOptions("load-kill", "full");
        options.instanceExtra += "    loader: {on-duplicate-logical: error}\n";
        auto files = syncscope::test::writeTaskFiles(dir.path().toStdString(), options);
        const QString logs = dir.filePath(QStringLiteral("logs"));
        auto chunksDone = [&]() -> std::pair<int, int> {
            try {
                auto row =
                    down.query("SELECT COUNT(*), COALESCE(SUM(done), 0) FROM dm_meta.`load-kill_loader_checkpoint`")
                        .front();
                return {std::stoi(*row[0]), std::stoi(*row[1])};
            } catch (const std::exception&) {
                return {0, 0};  // no plan yet
            }
        };

        std::mt19937 random(20261201);
        // A kill this soon after the start falls while the snapshot, schema and plan are made, or in the first chunks.
        std::uniform_int_distribution<int> startupKillMs(1, 80);
        // Chunks done before the mid-copy kills: drawn once the plan's size is known, in rising order.
        std::vector<double> copyKillFractions;
        std::uniform_real_distribution<double> fraction(0.05, 0.8);  // slack for a poll that comes late
        for (int kill = kStartupKills; kill < kKills; ++kill) {
            copyKillFractions.push_back(fraction(random));
        }
        std::sort(copyKillFractions.begin(), copyKillFractions.end());

        int killedMidLoad = 0;
        int killedBeforePlan = 0;
        int killsDone = 0;
        QString progressAtKills;  // chunks done/planned after each kill
        for (int kill = 0; kill < kKills; ++kill) {
            QProcess run;
            syncscope::test::startRun(run, files, logs, kChunkRows, kThreads);
            QVERIFY(run.waitForStarted());
            bool finished = false;
            if (kill < kStartupKills) {
                finished = run.waitForFinished(startupKillMs(random));
            } else {
                auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kRunTimeoutSeconds);
                while (!finished && std::chrono::steady_clock::now() < deadline) {
                    auto [total, done] = chunksDone();
                    if (total > 0 && done >= copyKillFractions[kill - kStartupKills] * total) {
                        break;
                    }
                    finished = run.waitForFinished(kPollMs);
                }
            }
            if (finished) {
                QVERIFY2(run.exitCode() == 0, run.readAllStandardError().right(3000).constData());
                break;  // the load is complete: nothing left to kill
            }
            run.kill();  // SIGKILL
            QVERIFY(run.waitForFinished());
            ++killsDone;
            // The persisted progress at the kill: it must have left chunks to copy, or the kill proved nothing.
            auto [total, done] = chunksDone();
            progressAtKills += QStringLiteral(" %1/%2").arg(done).arg(total);
            QVERIFY2(total == 0 || done < total,
                     qPrintable(QStringLiteral("kill %1 landed after every chunk was done (%2 of %3): the load was "
                                               "not interrupted")
                                    .arg(kill + 1)
                                    .arg(done)
                                    .arg(total)));
            if (total > 0 && done > 0) {
                ++killedMidLoad;
            }
            killedBeforePlan += total == 0 ? 1 : 0;
        }
        QVERIFY2(killsDone == kKills, qPrintable(QStringLiteral("only %1 kills before the load ended").arg(killsDone)));
        QVERIFY2(killedMidLoad >= kKills - kStartupKills,
                 qPrintable(QStringLiteral("only %1 kills landed while chunks were copied (done/planned:%2)")
                                .arg(killedMidLoad)
                                .arg(progressAtKills)));

        QProcess last;
        syncscope::test::startRun(last, files, logs, kChunkRows, kThreads);
        QVERIFY(last.waitForFinished(120000));
        QVERIFY2(last.exitCode() == 0, last.readAllStandardError().right(3000).constData());
        QCOMPARE(syncscope::test::tableChecksums(down, false), syncscope::test::tableChecksums(up, true));
        auto [total, done] = chunksDone();
        QCOMPARE(done, total);
        qInfo(
            "of %d kills, %d landed before the plan was saved and %d while chunks were copied; chunks done/planned "
            "at each kill:%s",
            kKills, killedBeforePlan, killedMidLoad, qPrintable(progressAtKills));
    }
};

QTEST_GUILESS_MAIN(LoadKillTest)
#include "test_load_kill.moc"
