// Issue 10.13 end to end: during a normal live run the GUI flags no healthy table. The real engine
// applies a steady stream of small transactions over many tables (the upstream's position is polled
// once a second while the read point moves with every event, and the upstream rotates meanwhile);
// every status snapshot, read ten times a second through the table checkpoint model as the GUI reads
// it, must show no anomaly, and in the snapshot itself no point may lie past the upstream's position.
#include <QtTest>

#include <QTemporaryDir>

#include <atomic>
#include <thread>

#include "engine/binlog/binlog_position.h"
#include "tests/support/task_files.h"
#include "tests/support/test_env.h"
#include "tests/ui/support/real_task.h"
#include "ui/models/table_checkpoint_model.h"

using namespace syncscope;
using namespace syncscope::ui;

namespace {

constexpr int kWaitMs = 60000;
constexpr int kTables = 12;
constexpr int kWriteRounds = 60;  // ~6 s of writes at 100 ms per round
constexpr int kRotateEveryRounds = 20;
constexpr std::chrono::milliseconds kRoundPause{100};
constexpr std::chrono::milliseconds kSampleInterval{50};
const char* const kSchema = "liveflags";

binlog::BinlogPosition positionOf(const task::PointView& point) {
    return binlog::BinlogPosition(point.file, point.pos);
}

std::string describe(const task::StatusSnapshot& s, const task::TablePointView& t) {
    return t.table + " persisted " + t.persisted.text() + " upstream " + s.upstream.text() + " read " + s.read.text() +
           " files " + std::to_string(s.upstreamFiles.size()) + " flag " + anomalyLabel(anomalyOf(t, s)).toStdString();
}

}  // namespace

class LiveFlagsTest : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

private slots:
    void healthyLiveRunFlagsNoTable() {
        QVERIFY(dir_.isValid());
        auto up = test::connectUpstream();
        auto down = test::connectDownstream();
        for (auto* server : {up.get(), down.get()}) {
            server->execute("SET SESSION sql_log_bin = 0");
            server->execute(std::string("DROP DATABASE IF EXISTS ") + kSchema);
            server->execute(std::string("CREATE DATABASE ") + kSchema);
            for (int t = 0; t < kTables; ++t) {
                server->execute(std::string("CREATE TABLE ") + kSchema + ".t" + std::to_string(t) +
                                " (id INT PRIMARY KEY, v INT)");
            }
            server->execute("SET SESSION sql_log_bin = 1");
        }
        down->execute("CREATE DATABASE IF NOT EXISTS dm_meta");
        down->execute("DROP TABLE IF EXISTS dm_meta.liveflags_syncer_checkpoint");
        auto [file, pos] = test::masterPosition(*up);
        test::TaskFileOptions options;
        options.name = "liveflags";
        options.binlogName = file;
        options.binlogPos = pos;
        options.flushIntervalSeconds = 1;
        options.instanceExtra = std::string("    block-allow-list: \"only\"\n");
        options.topLevelExtra = std::string("block-allow-list:\n  only: {do-dbs: [\"") + kSchema + "\"]}\n";
        test::TaskFiles files = test::writeTaskFiles(dir_.path().toStdString(), options);
        auto task = test::openRealTask(files.task, files.source, dir_.filePath("audit.jsonl").toStdString());
        QVERIFY(task->start().accepted);

        std::atomic<bool> writing = true;
        std::string writeError;
        std::thread writer([&] {
            try {
                auto conn = test::connectUpstream();
                for (int round = 0; round < kWriteRounds; ++round) {
                    for (int t = 0; t < kTables; ++t) {
                        conn->execute(std::string("INSERT INTO ") + kSchema + ".t" + std::to_string(t) + " VALUES (" +
                                      std::to_string(round) + ", " + std::to_string(round) + ")");
                    }
                    if ((round + 1) % kRotateEveryRounds == 0) {
                        conn->execute("FLUSH BINARY LOGS");
                    }
                    std::this_thread::sleep_for(kRoundPause);
                }
            } catch (const std::exception& e) {
                writeError = e.what();
            }
            writing = false;
        });

        TableCheckpointModel model;
        int samples = 0;
        int samplesWithPoints = 0;
        std::vector<std::string> flagged;
        while (writing || samples == 0) {
            auto snapshot = task->status();
            model.setSnapshot(snapshot);
            ++samples;
            for (int row = 0; row < model.rowCount(); ++row) {
                if (model.anomalyAt(row) != CheckpointAnomaly::None && flagged.size() < 5) {
                    flagged.push_back(describe(*snapshot, *model.tableAt(row)));
                }
            }
            for (const auto& table : snapshot->tables) {
                if (!table.persisted.known() || !snapshot->upstream.known()) {
                    continue;
                }
                ++samplesWithPoints;
                if (positionOf(table.persisted) > positionOf(snapshot->upstream) && flagged.size() < 5) {
                    flagged.push_back("snapshot: " + describe(*snapshot, table));
                }
                if (!table.persisted.axis && flagged.size() < 5) {
                    flagged.push_back("not on the axis: " + describe(*snapshot, table));
                }
            }
            std::this_thread::sleep_for(kSampleInterval);
        }
        writer.join();
        QVERIFY2(writeError.empty(), writeError.c_str());
        QVERIFY2(samplesWithPoints > 0, "no snapshot showed a persisted table point: nothing was tested");
        std::string report;
        for (const auto& line : flagged) {
            report += line + "\n";
        }
        QVERIFY2(flagged.empty(), report.c_str());

        // Everything arrived: the run was a real one.
        QVERIFY(test::waitFor(
            [&] {
                return test::valueOf(*down, std::string("SELECT COUNT(*) FROM ") + kSchema + ".t" +
                                                std::to_string(kTables - 1)) == std::to_string(kWriteRounds);
            },
            kWaitMs));
        QVERIFY(task->stop().accepted);
        task->waitUntilStopped();
    }
};

QTEST_GUILESS_MAIN(LiveFlagsTest)
#include "test_live_flags.moc"
