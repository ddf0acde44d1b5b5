// Lag and the applied point tell the truth in every state (issue 5, point 4): zero when caught up
// (heartbeats), growing while paused with upstream writes waiting, growing while blocked on a failed
// row, back to zero once resumed and caught up; the applied point follows the workers' commits, ahead
// of the persisted checkpoint between flushes.
#include <QtTest>

#include <QTemporaryDir>

#include <chrono>
#include <functional>
#include <thread>

#include "engine/source/upstream_connection.h"
#include "engine/task/task.h"
#include "tests/support/test_env.h"

using syncscope::source::UpstreamConnection;
using namespace syncscope;
using syncscope::test::waitFor;

namespace {

std::string describe(const task::StatusSnapshot& s) {
    return std::string("stage ") + task::stageName(s.stage) + ", lag " + std::to_string(s.lagSeconds) + " s, read " +
           s.read.text() + ", applied " + s.applied.text() + ", persisted " + s.globalPersisted.text() + ", upstream " +
           s.upstream.text() + ", error: " + s.lastError;
}

}  // namespace

class LagAndAppliedTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    QTemporaryDir dir_;

    std::string count(const std::string& where) {
        return down_->queryValue("SELECT COUNT(*) FROM lagtest.a WHERE " + where).value_or("NULL");
    }

private slots:
    void init() {
        up_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::upstreamRoot()));
        down_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::downstreamRoot()));
        QVERIFY(dir_.isValid());
    }

    void lagAndAppliedTellTheTruthInEveryState() {
        for (UpstreamConnection* server : {up_.get(), down_.get()}) {
            server->execute("SET SESSION sql_log_bin = 0");
            server->execute("DROP DATABASE IF EXISTS lagtest");
            server->execute("CREATE DATABASE lagtest");
            server->execute("CREATE TABLE lagtest.a (id INT PRIMARY KEY, v VARCHAR(20))");
            server->execute("SET SESSION sql_log_bin = 1");
        }
        down_->execute("CREATE DATABASE IF NOT EXISTS dm_meta");
        down_->execute("DROP TABLE IF EXISTS dm_meta.lagtest_syncer_checkpoint");

        task::TaskSetup setup;
        setup.taskName = "lagtest";
        setup.sourceId = "replica-1";
        setup.upstream = test::engineSettings(test::upstreamReplication());
        setup.downstream = test::engineSettings(test::downstreamRoot());
        setup.syncer.workerCount = 4;
        setup.syncer.checkpointFlushIntervalSeconds = 30;  // the applied point must move without flushes
        setup.heartbeatSeconds = 1;
        setup.auditLogPath = dir_.filePath("lagtest-audit.jsonl").toStdString();
        auto master = up_->query("SHOW MASTER STATUS");
        setup.metaBinlogName = *master.front()[0];
        setup.metaBinlogPos = std::stoull(*master.front()[1]);

        task::Task running(setup);
        QVERIFY(running.start().accepted);
        for (int id = 1; id <= 20; ++id) {
            up_->execute("INSERT INTO lagtest.a VALUES (" + std::to_string(id) + ", 'row')");
        }
        uint64_t upstreamEnd = std::stoull(*up_->query("SHOW MASTER STATUS").front()[1]);

        // Running and caught up: everything applied, no lag, the applied point at the upstream's end
        // while the persisted point (30 s interval) is still at the start.
        bool caughtUp = waitFor([&] {
            auto s = running.status();
            return s->stage == task::Stage::Running && s->applied.pos == upstreamEnd && s->lagSeconds == 0;
        });
        QVERIFY2(caughtUp, describe(*running.status()).c_str());
        QCOMPARE(count("1 = 1"), std::string("20"));
        auto s = running.status();
        QVERIFY2(s->globalPersisted.pos < s->applied.pos, describe(*s).c_str());
        QVERIFY2(waitFor([&] { return running.status()->rowsApplied == 20; }),  // refreshed on the heartbeat
                 std::to_string(running.status()->rowsApplied).c_str());
        s = running.status();
        QVERIFY(s->totalRowsPerSecond > 0);
        QVERIFY(s->recentRowsPerSecond > 0);  // within the last 5 s
        QCOMPARE(s->tables.size(), size_t(1));
        QVERIFY(s->tables.front().lastChange.has_value());

        // Paused while the upstream moves on: the lag grows from when the upstream was seen ahead.
        QVERIFY(running.pause().accepted);
        QVERIFY(waitFor([&] { return running.stage() == task::Stage::Paused; }));
        QCOMPARE(running.status()->lagSeconds, 0.0);
        up_->execute("INSERT INTO lagtest.a VALUES (21, 'p')");
        std::this_thread::sleep_for(std::chrono::milliseconds(3500));
        s = running.status();
        QVERIFY2(s->lagSeconds >= 2, describe(*s).c_str());  // seen within ~1.1 s of the write
        QCOMPARE(count("id = 21"), std::string("0"));

        // Resumed: caught up again, lag back to zero.
        QVERIFY(running.resume().accepted);
        QVERIFY2(waitFor([&] { return count("id = 21") == "1" && running.status()->lagSeconds == 0; }),
                 describe(*running.status()).c_str());
        // Counters run over the task's life: the new session adds to what the first one applied.
        QVERIFY2(waitFor([&] { return running.status()->rowsApplied >= 21; }),
                 std::to_string(running.status()->rowsApplied).c_str());

        // Blocked on a failed row: the lag grows from that transaction's time while nobody acts.
        down_->execute("ALTER TABLE lagtest.a MODIFY v VARCHAR(3)");
        up_->execute("INSERT INTO lagtest.a VALUES (22, 'far too long')");
        QVERIFY2(waitFor([&] { return running.waitingForDba(); }), describe(*running.status()).c_str());
        std::this_thread::sleep_for(std::chrono::milliseconds(3000));
        s = running.status();
        QCOMPARE(s->stage, task::Stage::Error);
        QVERIFY2(s->lagSeconds >= 2, describe(*s).c_str());
        // The lag counts whole seconds from the transaction's timestamp and the status is published every
        // 100 ms: two snapshots read 1 s apart may be taken only 0.9 s apart, within one second. 1.5 s
        // apart they are at least 1.3 s apart.
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));
        QVERIFY2(running.status()->lagSeconds > s->lagSeconds, describe(*running.status()).c_str());

        // Fixed downstream and resumed: the row lands, lag back to zero.
        down_->execute("ALTER TABLE lagtest.a MODIFY v VARCHAR(20)");
        QVERIFY(running.resume().accepted);
        QVERIFY2(waitFor([&] { return count("id = 22") == "1" && running.status()->lagSeconds == 0; }),
                 describe(*running.status()).c_str());
        QVERIFY2(waitFor([&] { return running.status()->rowsApplied >= 22; }),
                 std::to_string(running.status()->rowsApplied).c_str());
        QVERIFY(running.stop().accepted);
        running.waitUntilStopped();
    }
};

QTEST_GUILESS_MAIN(LagAndAppliedTest)
#include "test_lag_and_applied.moc"
