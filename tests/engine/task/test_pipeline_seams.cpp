// The sync pipeline driven through its seams (issue 11): a synthetic binlog instead of an upstream and
// scripted worker sessions instead of the downstream's connections, so that failures, slow commits and
// lost connections happen exactly where a test puts them. Only the checkpoint table lives on a real
// server (the pair's downstream). Every case checks DESIGN.md's first invariant against what the
// scripted sessions really committed: no persisted point (global or table) covers a row that did not
// commit, at every sample taken while the pipeline runs and after it ends.
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <functional>
#include <future>
#include <memory>

#include "engine/checkpoint/checkpoint_tracker.h"
#include "engine/source/upstream_connection.h"
#include "engine/task/sync_pipeline.h"
#include "tests/integration/task/scripted_session.h"
#include "tests/integration/task/synthetic_binlog.h"
#include "tests/support/test_env.h"

using namespace syncscope;
using source::UpstreamConnection;

namespace {

constexpr int kRowsPerTransaction = 3;
constexpr int kDuplicateKey = 1062;    // needs the DBA
constexpr int kLostConnection = 2013;  // retryable
constexpr auto kRunLimit = std::chrono::seconds(60);
constexpr auto kSamplePause = std::chrono::milliseconds(20);

struct Run {
    task::SessionOutcome outcome;
    int samples = 0;
    int midwaySamples = 0;  // samples whose persisted global point was past the start and short of the end
    std::string violation;  // the first sample whose persisted point covered an uncommitted row
};

}  // namespace

class PipelineSeamsTest : public QObject {
    Q_OBJECT

    std::unique_ptr<UpstreamConnection> down_;

    task::TaskSetup makeSetup(const std::string& name) {
        task::TaskSetup setup;
        setup.taskName = name;
        setup.sourceId = "synthetic";
        setup.upstream = test::engineSettings(test::upstreamReplication());  // never contacted: the stream is synthetic
        setup.downstream = test::engineSettings(test::downstreamRoot());
        setup.syncer.workerCount = 4;
        setup.syncer.batch = 10;
        setup.syncer.checkpointFlushIntervalSeconds = 1;
        setup.syncer.multipleRows = true;
        setup.metaBinlogName = test::kSyntheticFile;
        setup.metaBinlogPos = 4;
        down_->execute("DROP TABLE IF EXISTS dm_meta.`" + name + "_syncer_checkpoint`");
        return setup;
    }

    // The persisted points of the task: the global one and every table's, as positions in the file.
    std::vector<uint64_t> persistedPositions(const std::string& task) {
        std::vector<uint64_t> positions;
        try {
            for (const auto& row : down_->query("SELECT binlog_pos FROM dm_meta.`" + task +
                                                "_syncer_checkpoint` WHERE binlog_pos IS NOT NULL")) {
                positions.push_back(std::stoull(*row[0]));
            }
        } catch (const std::exception&) {
            // the table is not there yet: nothing persisted
        }
        return positions;
    }

    // "" when every transaction a persisted point covers committed all its rows; else what did not.
    static std::string coverage(const test::SyntheticBinlog& binlog, test::SessionScript& script,
                                const std::vector<uint64_t>& persisted) {
        for (uint64_t point : persisted) {
            for (const auto& t : binlog.transactions()) {
                if (t.end > point) {
                    continue;
                }
                for (int32_t id : t.ids) {
                    if (!script.isCommitted(id)) {
                        return "a persisted point at " + std::to_string(point) + " covers the transaction ending at " +
                               std::to_string(t.end) + " whose row id=" + std::to_string(id) + " never committed";
                    }
                }
            }
        }
        return {};
    }

    static test::SyntheticBinlog binlogOf(int transactions) {
        test::SyntheticBinlog binlog;
        int32_t next = 1;
        for (int t = 0; t < transactions; ++t) {
            std::vector<int32_t> ids;
            for (int r = 0; r < kRowsPerTransaction; ++r) {
                ids.push_back(next++);
            }
            binlog.insertTransaction(ids);
        }
        return binlog;
    }

    // Runs the pipeline until it returns, or until `stopWhen` says so (then interrupts it), sampling the
    // persisted points all along.
    Run runPipeline(const task::TaskSetup& setup, const test::SyntheticBinlog& binlog,
                    const std::shared_ptr<test::SessionScript>& script, const std::function<bool()>& stopWhen,
                    std::chrono::microseconds pace = {}) {
        checkpoint::CheckpointTracker tracker;
        task::PipelinePorts ports;
        ports.openStream = [&binlog, pace](const task::StreamStart& start) {
            return std::make_unique<test::SyntheticStream>(binlog, start.from.position().offset(), pace);
        };
        ports.connectWorker = [script] { return std::make_unique<test::ScriptedSession>(script); };
        task::SyncPipeline pipeline(setup, tracker, ports);
        std::atomic<bool> interrupt{false};
        auto running = std::async(std::launch::async, [&] { return pipeline.run(std::nullopt, interrupt); });
        Run run;
        auto deadline = std::chrono::steady_clock::now() + kRunLimit;
        while (running.wait_for(kSamplePause) != std::future_status::ready) {
            ++run.samples;
            auto persisted = persistedPositions(setup.taskName);
            if (run.violation.empty()) {
                run.violation = coverage(binlog, *script, persisted);
            }
            if (!persisted.empty()) {
                uint64_t highest = *std::max_element(persisted.begin(), persisted.end());
                run.midwaySamples += highest > binlog.transactions().front().end && highest < binlog.end() ? 1 : 0;
            }
            if (!interrupt && (stopWhen() || std::chrono::steady_clock::now() > deadline)) {
                interrupt = true;
                pipeline.cancel();
            }
        }
        run.outcome = running.get();
        if (run.violation.empty()) {
            run.violation = coverage(binlog, *script, persistedPositions(setup.taskName));
        }
        return run;
    }

private slots:
    void initTestCase() {
        down_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::downstreamRoot()));
        down_->execute("DROP DATABASE IF EXISTS seam");
        down_->execute("CREATE DATABASE seam");
        down_->execute("CREATE TABLE seam.t (id INT NOT NULL PRIMARY KEY, v INT)");
        down_->execute("CREATE DATABASE IF NOT EXISTS dm_meta");
    }

    void cleanupTestCase() {
        if (down_) {
            down_->execute("DROP DATABASE IF EXISTS seam");
        }
    }

    // A row fails inside a batch: the session stops with that row's error, and no persisted point
    // covers its transaction (nor, with it, any transaction whose rows were dropped with the batch).
    void aFailedRowIsNeverCoveredByAPersistedPoint_data() {
        QTest::addColumn<int>("code");
        QTest::addColumn<bool>("retryable");
        QTest::addColumn<int>("failingId");
        QTest::addColumn<int>("commitMs");  // with slow commits (and an upstream that keeps writing), interval
                                            // flushes are planned while the failing row still waits to run
        QTest::addRow("duplicate key mid-batch: stops for the DBA") << kDuplicateKey << false << 50 << 2;
        QTest::addRow("lost connection mid-batch: retryable") << kLostConnection << true << 50 << 2;
        QTest::addRow("failure in the first transaction") << kDuplicateKey << false << 2 << 2;
        QTest::addRow("failure in the last transaction") << kDuplicateKey << false << 89 << 2;
        QTest::addRow("duplicate key behind a planned interval flush") << kDuplicateKey << false << 500 << 30;
        QTest::addRow("lost connection behind a planned interval flush") << kLostConnection << true << 500 << 30;
    }
    void aFailedRowIsNeverCoveredByAPersistedPoint() {
        QFETCH(int, code);
        QFETCH(bool, retryable);
        QFETCH(int, failingId);
        QFETCH(int, commitMs);
        auto binlog = binlogOf(300);
        auto script = std::make_shared<test::SessionScript>();
        script->failOnId = failingId;
        script->failCode = code;
        script->commitDelay = std::chrono::milliseconds(commitMs);
        task::TaskSetup setup = makeSetup("seam_fail");
        setup.syncer.batch = kRowsPerTransaction;
        Run run = runPipeline(
            setup, binlog, script, [] { return false; }, std::chrono::milliseconds(commitMs > 2 ? 2 : 0));
        QVERIFY2(run.violation.empty(), run.violation.c_str());
        QCOMPARE(int(run.outcome.kind), int(task::SessionOutcome::Kind::Failed));
        QCOMPARE(run.outcome.retryable, retryable);
        QVERIFY2(run.outcome.message.find("scripted failure") != std::string::npos, run.outcome.message.c_str());
        const auto* failing = binlog.transactionOf(failingId);
        for (uint64_t point : persistedPositions(setup.taskName)) {
            QVERIFY2(point <= failing->start, ("persisted " + std::to_string(point) +
                                               " past the failed transaction at " + std::to_string(failing->start))
                                                  .c_str());
        }
        QVERIFY(!script->isCommitted(failingId));
    }

    // Slow commits (a few seconds of them) and a flush every second: every sample of the persisted points,
    // taken every 20 ms while the pipeline runs, covers committed rows only, and interval flushes did
    // happen midway; once everything committed and the pipeline stops gracefully, the global point is the
    // binlog's end.
    void slowCommitsNeverLetAFlushRunAhead_data() {
        QTest::addColumn<int>("commitMs");
        QTest::addColumn<bool>("multipleRows");
        QTest::addRow("30 ms commits, multiple rows") << 30 << true;
        QTest::addRow("30 ms commits, one statement per row") << 30 << false;
    }
    void slowCommitsNeverLetAFlushRunAhead() {
        QFETCH(int, commitMs);
        QFETCH(bool, multipleRows);
        auto binlog = binlogOf(300);
        auto script = std::make_shared<test::SessionScript>();
        script->commitDelay = std::chrono::milliseconds(commitMs);
        task::TaskSetup setup = makeSetup("seam_slow");
        setup.syncer.multipleRows = multipleRows;
        setup.syncer.batch = kRowsPerTransaction;  // a commit per transaction
        const int32_t lastId = binlog.transactions().back().ids.back();
        // 1,200 events, 2 ms apart: the upstream writes for about 2.5 s while commits lag behind.
        Run run = runPipeline(
            setup, binlog, script, [&] { return script->isCommitted(lastId); }, std::chrono::milliseconds(2));
        QVERIFY2(run.violation.empty(), run.violation.c_str());
        QCOMPARE(int(run.outcome.kind), int(task::SessionOutcome::Kind::Interrupted));
        QVERIFY2(run.midwaySamples > 0,
                 ("no interval flush seen midway in " + std::to_string(run.samples) + " samples").c_str());
        auto persisted = persistedPositions(setup.taskName);
        QVERIFY(!persisted.empty());
        QCOMPARE(*std::max_element(persisted.begin(), persisted.end()), binlog.end());
    }

    // A graceful stop while commits are slow persists what committed, never what is still in flight.
    void aStopDuringSlowCommitsPersistsOnlyWhatCommitted() {
        auto binlog = binlogOf(60);
        auto script = std::make_shared<test::SessionScript>();
        script->commitDelay = std::chrono::milliseconds(150);
        task::TaskSetup setup = makeSetup("seam_stop");
        const int32_t someId = binlog.transactions()[3].ids.front();
        Run run = runPipeline(setup, binlog, script, [&] { return script->isCommitted(someId); });
        QVERIFY2(run.violation.empty(), run.violation.c_str());
        QCOMPARE(int(run.outcome.kind), int(task::SessionOutcome::Kind::Interrupted));
        QVERIFY(!persistedPositions(setup.taskName).empty());
    }
};

QTEST_GUILESS_MAIN(PipelineSeamsTest)
#include "test_pipeline_seams.moc"
