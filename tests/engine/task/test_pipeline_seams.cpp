// The sync pipeline driven through its seams (issue 11), without a server: a synthetic binlog instead of
// an upstream, scripted worker sessions instead of the downstream's connections, and a scripted control
// port (an in-memory checkpoint store, scripted DDL outcomes) instead of the checkpoint table, so that
// failures, slow commits and lost connections happen exactly where a test puts them. Every case checks
// docs/design.md's invariants against what the scripted sessions really executed and committed, at every
// sample taken while the pipeline runs (every 20 ms) and after it ends:
// - no persisted point (global or table) covers a row that did not commit (invariant 1);
// - every row sent downstream lies at or before the persisted exit-safe point (it is persisted before
//   dispatch), and a graceful stop lowers it to the global point;
// - in every flush, no table point is ahead of the global point written with it (invariant 3);
// - what a status snapshot shows keeps its order: persisted global <= applied <= read <= the binlog's end
//   (the tracker's view is taken before the session's, as Task::buildSnapshot does).
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <functional>
#include <future>
#include <memory>
#include <set>
#include <string>
#include <thread>

#include "engine/apply/worker_pool.h"
#include "engine/checkpoint/checkpoint_tracker.h"
#include "engine/task/pipeline_live_view.h"
#include "engine/task/sync_pipeline.h"
#include "tests/engine/apply/row_change_fixtures.h"
#include "tests/engine/task/scripted_control.h"
#include "tests/engine/task/scripted_session.h"
#include "tests/engine/task/synthetic_binlog.h"

using namespace syncscope;

namespace {

constexpr int kRowsPerTransaction = 3;
constexpr int kDuplicateKey = 1062;     // needs the DBA
constexpr int kLostConnection = 2013;   // retryable
constexpr int kDuplicateColumn = 1060;  // a DDL that collides downstream: needs the DBA
constexpr auto kRunLimit = std::chrono::seconds(60);
constexpr auto kSamplePause = std::chrono::milliseconds(20);

struct Run {
    task::SessionOutcome outcome;
    int samples = 0;
    int midwaySamples = 0;  // samples whose persisted global point was past the start and short of the end
    std::string violation;  // the first sample that broke an invariant, and how
};

struct Scripts {
    std::shared_ptr<test::SessionScript> session = std::make_shared<test::SessionScript>();
    std::shared_ptr<test::ControlScript> control = std::make_shared<test::ControlScript>();
    // Transactions whose rows are not expected downstream from this session: those before the point it
    // resumes from (applied before), and the one the DBA skips.
    uint64_t appliedBefore = 0;
    std::optional<uint64_t> skippedStart;
    std::set<uint64_t> neverApplied;  // transactions on an online schema change tool's tables
    bool expected(const test::SyntheticBinlog::Transaction& t) const {
        return t.start >= appliedBefore && t.start != skippedStart && neverApplied.count(t.start) == 0;
    }
};

}  // namespace

class PipelineSeamsTest : public QObject {
    Q_OBJECT

    static task::TaskSetup makeSetup(const std::string& name) {
        task::TaskSetup setup;
        setup.taskName = name;
        setup.sourceId = "synthetic";
        setup.syncer.workerCount = 4;
        setup.syncer.batch = 10;
        setup.syncer.checkpointFlushIntervalSeconds = 1;
        setup.syncer.multipleRows = true;
        setup.metaBinlogName = test::kSyntheticFile;
        setup.metaBinlogPos = 4;
        return setup;
    }

    // "" when every transaction a persisted point covers committed all its rows; else what did not.
    static std::string coverage(const test::SyntheticBinlog& binlog, const Scripts& scripts,
                                const std::vector<uint64_t>& persisted) {
        for (uint64_t point : persisted) {
            for (const auto& t : binlog.transactions()) {
                if (t.end > point || !scripts.expected(t)) {
                    continue;
                }
                for (int32_t id : t.ids) {
                    if (!scripts.session->isCommitted(id)) {
                        return "a persisted point at " + std::to_string(point) + " covers the transaction ending at " +
                               std::to_string(t.end) + " whose row id=" + std::to_string(id) + " never committed";
                    }
                }
            }
        }
        return {};
    }

    // "" when every row sent downstream lies at or before the persisted exit-safe point. The executed rows
    // are read first: the mark is persisted before their dispatch, so a later read sees it.
    static std::string exitSafeCoverage(const test::SyntheticBinlog& binlog, Scripts& scripts) {
        std::set<int32_t> executed = scripts.session->executedIds();
        uint64_t exitSafe = scripts.control->persistedExitSafe();
        for (int32_t id : executed) {
            const auto* t = binlog.transactionOf(id);
            if (t != nullptr && t->end > exitSafe) {
                return "row id=" + std::to_string(id) + " of the transaction ending at " + std::to_string(t->end) +
                       " was sent downstream past the persisted exit-safe point " + std::to_string(exitSafe);
            }
        }
        return {};
    }

    // "" when no flush wrote a table point ahead of its global point.
    static std::string tablePointsBehindGlobal(test::ControlScript& control) {
        std::lock_guard lock(control.mutex);
        for (const auto& plan : control.plans) {
            for (const auto& table : plan.tablePoints) {
                if (table.location.position().offset() > plan.globalPoint.position().offset()) {
                    return "a flush wrote the table point " + table.location.toString() +
                           " ahead of its global point " + plan.globalPoint.toString();
                }
            }
        }
        return {};
    }

    static std::string violations(const test::SyntheticBinlog& binlog, Scripts& scripts) {
        std::string found = coverage(binlog, scripts, scripts.control->persistedPositions());
        if (found.empty()) {
            found = exitSafeCoverage(binlog, scripts);
        }
        if (found.empty()) {
            found = tablePointsBehindGlobal(*scripts.control);
        }
        return found;
    }

    // "" when the persisted global point, the applied point, the read point and the binlog's end are in
    // order, as one status snapshot takes them (the tracker first, then the session's live view).
    static std::string snapshotOrder(const checkpoint::CheckpointTracker& tracker, const task::SyncPipeline& pipeline,
                                     const test::SyntheticBinlog& binlog) {
        checkpoint::TrackerView points = tracker.view();
        task::SessionLiveView live = pipeline.live();
        if (points.globalPersisted.isEmpty() || !live.applied.known() || !live.read.known()) {
            return {};
        }
        uint64_t persisted = points.globalPersisted.position().offset();
        if (persisted > live.applied.pos) {
            return "a snapshot showed the persisted global point " + std::to_string(persisted) +
                   " past the applied point " + std::to_string(live.applied.pos);
        }
        if (live.applied.pos > live.read.pos) {
            return "a snapshot showed the applied point " + std::to_string(live.applied.pos) + " past the read point " +
                   std::to_string(live.read.pos);
        }
        if (live.read.pos > binlog.end()) {
            return "a snapshot showed the read point " + std::to_string(live.read.pos) + " past the binlog's end " +
                   std::to_string(binlog.end());
        }
        return {};
    }

    static test::SyntheticBinlog binlogOf(int transactions) {
        test::SyntheticBinlog binlog;
        appendTransactions(binlog, transactions);
        return binlog;
    }

    static void appendTransactions(test::SyntheticBinlog& binlog, int transactions) {
        int32_t next = binlog.transactions().empty() ? 1 : binlog.transactions().back().ids.back() + 1;
        for (int t = 0; t < transactions; ++t) {
            std::vector<int32_t> ids;
            for (int r = 0; r < kRowsPerTransaction; ++r) {
                ids.push_back(next++);
            }
            binlog.insertTransaction(ids);
        }
    }

    // Runs the pipeline until it returns, or until `stopWhen` says so (then interrupts it), sampling the
    // invariants all along.
    static Run runPipeline(const task::TaskSetup& setup, const test::SyntheticBinlog& binlog, Scripts& scripts,
                           const std::function<bool()>& stopWhen, std::chrono::microseconds pace = {},
                           std::optional<task::SkipRequest> skip = std::nullopt) {
        checkpoint::CheckpointTracker tracker;
        task::PipelinePorts ports;
        ports.openStream = [&binlog, pace](const task::StreamStart& start) {
            return std::make_unique<test::SyntheticStream>(binlog, start.from.position().offset(), pace);
        };
        ports.connectWorker = [session = scripts.session] { return std::make_unique<test::ScriptedSession>(session); };
        ports.openControl = [control = scripts.control](const task::TaskSetup& taskSetup) {
            return std::make_unique<test::ScriptedControl>(control, taskSetup);
        };
        task::SyncPipeline pipeline(setup, tracker, ports);
        std::atomic<bool> interrupt{false};
        auto running = std::async(std::launch::async, [&] { return pipeline.run(skip, interrupt); });
        Run run;
        auto deadline = std::chrono::steady_clock::now() + kRunLimit;
        while (running.wait_for(kSamplePause) != std::future_status::ready) {
            ++run.samples;
            if (run.violation.empty()) {
                run.violation = violations(binlog, scripts);
            }
            if (run.violation.empty()) {
                run.violation = snapshotOrder(tracker, pipeline, binlog);
            }
            uint64_t global = scripts.control->persistedGlobal();
            run.midwaySamples += global > binlog.transactions().front().end && global < binlog.end() ? 1 : 0;
            if (!interrupt && (stopWhen() || std::chrono::steady_clock::now() > deadline)) {
                interrupt = true;
                pipeline.cancel();
            }
        }
        run.outcome = running.get();
        if (run.violation.empty()) {
            run.violation = violations(binlog, scripts);
        }
        return run;
    }

    static bool allCommitted(const test::SyntheticBinlog& binlog, test::SessionScript& session) {
        return session.isCommitted(binlog.transactions().back().ids.back());
    }

    // The status view's points, sampled in a tight loop from another thread while 16 workers commit and
    // interval flushes run: never persisted global > applied > read (an applied point shown late once let
    // a snapshot put the persisted global point past it).
    static std::string snapshotOrderUnderLoad(const task::TaskSetup& setup, const test::SyntheticBinlog& binlog,
                                              Scripts& scripts, uint64_t& samples) {
        checkpoint::CheckpointTracker tracker;
        task::PipelinePorts ports;
        ports.openStream = [&binlog](const task::StreamStart& start) {
            return std::make_unique<test::SyntheticStream>(binlog, start.from.position().offset(),
                                                           std::chrono::microseconds(50));
        };
        ports.connectWorker = [session = scripts.session] { return std::make_unique<test::ScriptedSession>(session); };
        ports.openControl = [control = scripts.control](const task::TaskSetup& taskSetup) {
            return std::make_unique<test::ScriptedControl>(control, taskSetup);
        };
        task::SyncPipeline pipeline(setup, tracker, ports);
        std::atomic<bool> interrupt{false};
        auto running = std::async(std::launch::async, [&] { return pipeline.run(std::nullopt, interrupt); });
        std::string violation;
        auto deadline = std::chrono::steady_clock::now() + kRunLimit;
        while (running.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
            ++samples;
            if (violation.empty()) {
                violation = snapshotOrder(tracker, pipeline, binlog);
            }
            if (!interrupt && (allCommitted(binlog, *scripts.session) || std::chrono::steady_clock::now() > deadline)) {
                interrupt = true;
                pipeline.cancel();
            }
        }
        running.get();
        return violation;
    }

    // A pool of `workers` scripted sessions, each change its own batch, no adaptive concurrency.
    static apply::WorkerPoolSettings oneRowBatches(const std::shared_ptr<test::SessionScript>& script, int workers) {
        apply::WorkerPoolSettings settings;
        settings.workerCount = workers;
        settings.adaptiveConcurrency = false;
        settings.worker.batch = 1;
        settings.connect = [script] { return std::make_unique<test::ScriptedSession>(script); };
        return settings;
    }

private slots:
    // The pool's applied sequence never goes back (what made a status show the applied point behind the
    // persisted global point): a change pushed to a worker that was idle, while its commit waits, used
    // to bound the answer by that worker's old commit, below an answer already given.
    void theAppliedSequenceNeverGoesBack() {
        auto script = std::make_shared<test::SessionScript>();
        apply::WorkerPoolSettings settings = oneRowBatches(script, 2);
        apply::WorkerPool pool(settings);
        auto t = apply::testing::table("seam", "t", {"id", "v"}, {0});
        auto change = [&](long id) { return apply::testing::insert(t, apply::testing::ints({id, 0})); };
        auto workerOf = [&](long id) { return apply::causalityKeys(change(id)).front() % settings.workerCount; };
        // One change on worker `idle`, three on the other, all committed; then one more on `idle`.
        const uint64_t idle = workerOf(1);
        std::vector<long> others;
        for (long id = 2; others.size() < 3; ++id) {
            if (workerOf(id) != idle) {
                others.push_back(id);
            }
        }
        long late = 100;
        while (workerOf(late) != idle) {
            ++late;
        }
        QVERIFY(pool.dispatch(change(1)));
        for (long id : others) {
            QVERIFY(pool.dispatch(change(id)));
        }
        QVERIFY(pool.barrier().ok());
        const uint64_t before = pool.appliedSequence();
        QCOMPARE(before, uint64_t{4});
        {
            std::lock_guard lock(script->mutex);
            script->commitDelay = std::chrono::milliseconds(500);
        }
        QVERIFY(pool.dispatch(change(late)));
        const uint64_t during = pool.appliedSequence();  // `idle` holds sequence 5, its last commit was 1
        QVERIFY2(during >= before, (std::to_string(during) + " after " + std::to_string(before)).c_str());
        QVERIFY(pool.barrier().ok());
        QCOMPARE(pool.appliedSequence(), uint64_t{5});
        pool.stop();
    }

    // The live view at the moments the pipeline's threads race on: the read point moves after its
    // event is handled, and a group's end may be persisted before that. The view must show the group's
    // end as applied (not the rows event before it, below the persisted point: the drained shortcut
    // used to) and never an applied point past the read point. A group whose timestamp is 0 is open all
    // the same (the view used to take a 0 timestamp for "no group").
    void theLiveViewKeepsApplyBehindReadAtAGroupsEnd() {
        apply::WorkerPool pool(oneRowBatches(std::make_shared<test::SessionScript>(), 1));
        auto t = apply::testing::table("seam", "t", {"id", "v"}, {0});
        task::PipelineLiveView view;
        view.attach(&pool);
        view.startAt({"bin.000001", 4, {}, {}});
        view.groupOpened(0);
        view.eventRead("bin.000001", 100);  // the rows event
        QVERIFY(pool.dispatch(apply::testing::insert(t, apply::testing::ints({1, 0}))));
        QVERIFY(pool.barrier().ok());
        // Dispatched and committed, the group still open: nothing of it is applied yet.
        QCOMPARE(view.current().applied.pos, uint64_t{4});
        // The group ends at 127 (its XID); a flush may persist 127 now, before the XID is counted as read.
        view.groupEnded(pool.lastDispatchedSequence(), {"bin.000001", 127, {}, {}}, 0);
        task::SessionLiveView live = view.current();
        QCOMPARE(live.applied.pos, uint64_t{127});
        QCOMPARE(live.read.pos, uint64_t{127});
        view.eventRead("bin.000001", 127);
        QCOMPARE(view.current().applied.pos, uint64_t{127});
        // A rotation between groups moves the global point into the next file: read and applied follow.
        view.passedIdle({"bin.000002", 4, {}, {}});
        live = view.current();
        QCOMPARE(live.read.file, std::string("bin.000002"));
        QCOMPARE(live.applied.file, std::string("bin.000002"));
        QCOMPARE(live.applied.pos, uint64_t{4});
        pool.stop();
    }

    // The read point moves per event without the view's mutex while the file stays the same; a reader
    // must never see the next file's name with the previous file's offset, nor a point or an event count
    // that goes back.
    void theReadPointSeenWhileEventsAreReadIsNeverMixedNorGoesBack() {
        task::PipelineLiveView view;
        view.startAt({"bin.000001", 4, {}, {}});
        constexpr uint64_t kFirstFileStart = 1'000'000;  // every offset of the first file is above the second's
        constexpr uint64_t kEventsPerFile = 200'000;
        std::atomic<bool> done{false};
        std::thread writer([&] {
            for (uint64_t i = 0; i < kEventsPerFile; ++i) {
                view.eventRead("bin.000001", kFirstFileStart + i);
            }
            for (uint64_t i = 0; i < kEventsPerFile; ++i) {
                view.eventRead("bin.000002", 4 + i);
            }
            done.store(true);
        });
        std::string lastFile;
        uint64_t lastPos = 0;
        uint64_t lastEvents = 0;
        size_t mixed = 0;
        size_t backwards = 0;
        size_t looks = 0;
        while (!done.load() || looks == 0) {
            task::SessionLiveView live = view.current();
            ++looks;
            if (live.eventsRead < lastEvents) {
                ++backwards;
            }
            lastEvents = live.eventsRead;
            if (!live.read.known()) {
                continue;
            }
            if (live.read.file == "bin.000002" && live.read.pos >= kFirstFileStart) {
                ++mixed;
            }
            if (live.read.file == lastFile && live.read.pos < lastPos) {
                ++backwards;
            }
            if (lastFile == "bin.000002" && live.read.file == "bin.000001") {
                ++backwards;
            }
            lastFile = live.read.file;
            lastPos = live.read.pos;
        }
        writer.join();
        QCOMPARE(mixed, size_t(0));
        QCOMPARE(backwards, size_t(0));
        task::SessionLiveView live = view.current();
        QCOMPARE(live.eventsRead, 2 * kEventsPerFile);
        QCOMPARE(live.read.file, std::string("bin.000002"));
        QCOMPARE(live.read.pos, 4 + kEventsPerFile - 1);
        QVERIFY2(looks > 1, qPrintable(QString("%1 looks").arg(looks)));
    }

    void snapshotPointsKeepTheirOrder() {
        auto binlog = binlogOf(3000);
        Scripts scripts;
        task::TaskSetup setup = makeSetup("seam_order");
        setup.syncer.workerCount = 16;
        setup.syncer.batch = kRowsPerTransaction;
        uint64_t samples = 0;
        std::string violation = snapshotOrderUnderLoad(setup, binlog, scripts, samples);
        qInfo("%llu snapshots sampled", static_cast<unsigned long long>(samples));
        QVERIFY2(violation.empty(), violation.c_str());
        QVERIFY(samples > 1000);
        QVERIFY(scripts.control->persistedGlobal() > binlog.transactions().front().end);  // flushes did run
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
        QTest::addRow("failure in the last transaction") << kDuplicateKey << false << 899 << 2;
        QTest::addRow("duplicate key behind a planned interval flush") << kDuplicateKey << false << 500 << 30;
        QTest::addRow("lost connection behind a planned interval flush") << kLostConnection << true << 500 << 30;
    }
    void aFailedRowIsNeverCoveredByAPersistedPoint() {
        QFETCH(int, code);
        QFETCH(bool, retryable);
        QFETCH(int, failingId);
        QFETCH(int, commitMs);
        auto binlog = binlogOf(300);
        Scripts scripts;
        scripts.session->failOnId = failingId;
        scripts.session->failCode = code;
        scripts.session->commitDelay = std::chrono::milliseconds(commitMs);
        task::TaskSetup setup = makeSetup("seam_fail");
        setup.syncer.batch = kRowsPerTransaction;
        Run run = runPipeline(
            setup, binlog, scripts, [] { return false; }, std::chrono::milliseconds(commitMs > 2 ? 2 : 0));
        QVERIFY2(run.violation.empty(), run.violation.c_str());
        QCOMPARE(int(run.outcome.kind), int(task::SessionOutcome::Kind::Failed));
        QCOMPARE(run.outcome.retryable, retryable);
        QVERIFY2(run.outcome.message.find("scripted failure") != std::string::npos, run.outcome.message.c_str());
        const auto* failing = binlog.transactionOf(failingId);
        for (uint64_t point : scripts.control->persistedPositions()) {
            QVERIFY2(point <= failing->start, ("persisted " + std::to_string(point) +
                                               " past the failed transaction at " + std::to_string(failing->start))
                                                  .c_str());
        }
        QVERIFY(!scripts.session->isCommitted(failingId));
    }

    // Slow commits (a few seconds of them) and a flush every second: every sample of the persisted points,
    // taken every 20 ms while the pipeline runs, covers committed rows only, and interval flushes did
    // happen midway; once everything committed and the pipeline stops gracefully, the global point is the
    // binlog's end and the exit-safe point is lowered to it.
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
        Scripts scripts;
        scripts.session->commitDelay = std::chrono::milliseconds(commitMs);
        task::TaskSetup setup = makeSetup("seam_slow");
        setup.syncer.multipleRows = multipleRows;
        setup.syncer.batch = kRowsPerTransaction;  // a commit per transaction
        // 1,200 events, 2 ms apart: the upstream writes for about 2.5 s while commits lag behind.
        Run run = runPipeline(
            setup, binlog, scripts, [&] { return allCommitted(binlog, *scripts.session); },
            std::chrono::milliseconds(2));
        QVERIFY2(run.violation.empty(), run.violation.c_str());
        QCOMPARE(int(run.outcome.kind), int(task::SessionOutcome::Kind::Interrupted));
        QVERIFY2(run.midwaySamples > 0,
                 ("no interval flush seen midway in " + std::to_string(run.samples) + " samples").c_str());
        QCOMPARE(scripts.control->persistedGlobal(), binlog.end());
        QCOMPARE(scripts.control->persistedExitSafe(), binlog.end());
    }

    // A graceful stop while commits are slow persists what committed, never what is still in flight.
    void aStopDuringSlowCommitsPersistsOnlyWhatCommitted() {
        auto binlog = binlogOf(60);
        Scripts scripts;
        scripts.session->commitDelay = std::chrono::milliseconds(150);
        task::TaskSetup setup = makeSetup("seam_stop");
        const int32_t someId = binlog.transactions()[3].ids.front();
        Run run = runPipeline(setup, binlog, scripts, [&] { return scripts.session->isCommitted(someId); });
        QVERIFY2(run.violation.empty(), run.violation.c_str());
        QCOMPARE(int(run.outcome.kind), int(task::SessionOutcome::Kind::Interrupted));
        QVERIFY(scripts.control->persistedGlobal() >= binlog.transactions()[3].end);
    }

    // A DDL between two runs of rows: before it runs, every row before it has committed and the points
    // before it are persisted; when it fails downstream, the session stops on it with nothing after it
    // sent downstream and no point past its start; when it runs, the rest follows to the end.
    void aDdlRunsOnlyAfterEveryRowBeforeItCommitted_data() {
        QTest::addColumn<int>("ddlError");
        QTest::addRow("the DDL runs: the rows after it follow") << 0;
        QTest::addRow("the DDL fails downstream: the session stops on it") << kDuplicateColumn;
    }
    void aDdlRunsOnlyAfterEveryRowBeforeItCommitted() {
        QFETCH(int, ddlError);
        auto binlog = binlogOf(100);
        uint64_t ddlStart = binlog.ddl("ALTER TABLE t ADD COLUMN extra INT");
        appendTransactions(binlog, 100);
        const int32_t lastBeforeDdl = binlog.transactions()[99].ids.back();
        Scripts scripts;
        scripts.session->commitDelay = std::chrono::milliseconds(5);
        scripts.control->ddlErrorCode = ddlError;
        std::string atDdl = "the DDL never ran";
        scripts.control->whenDdlRuns = [&] {
            atDdl.clear();
            for (const auto& t : binlog.transactions()) {
                for (int32_t id : t.ids) {
                    bool committed = scripts.session->isCommitted(id);
                    if (t.end <= ddlStart && !committed) {
                        atDdl = "row id=" + std::to_string(id) + " before the DDL had not committed when it ran";
                    } else if (t.end > ddlStart && scripts.session->executedIds().count(id) != 0) {
                        atDdl = "row id=" + std::to_string(id) + " after the DDL was sent before it ran";
                    }
                }
            }
            if (atDdl.empty() && scripts.control->persistedGlobal() != ddlStart) {
                atDdl = "the global point persisted when the DDL ran is " +
                        std::to_string(scripts.control->persistedGlobal()) + ", not the DDL's start " +
                        std::to_string(ddlStart);
            }
        };
        task::TaskSetup setup = makeSetup("seam_ddl");
        Run run = runPipeline(setup, binlog, scripts, [&] { return allCommitted(binlog, *scripts.session); });
        QVERIFY2(run.violation.empty(), run.violation.c_str());
        QCOMPARE(scripts.control->ddlsRun.size(), size_t(1));
        QVERIFY2(atDdl.empty(), atDdl.c_str());
        for (const auto& t : binlog.transactions()) {
            bool beforeDdl = t.end <= ddlStart;
            for (int32_t id : t.ids) {
                QVERIFY2(scripts.session->isCommitted(id) == (beforeDdl || ddlError == 0),
                         ("row id=" + std::to_string(id)).c_str());
            }
        }
        QVERIFY(scripts.session->isCommitted(lastBeforeDdl));
        if (ddlError != 0) {
            QCOMPARE(int(run.outcome.kind), int(task::SessionOutcome::Kind::Failed));
            QVERIFY2(run.outcome.message.find("DDL failed downstream") != std::string::npos,
                     run.outcome.message.c_str());
            QVERIFY(!run.outcome.retryable);
            QCOMPARE(scripts.control->persistedGlobal(), ddlStart);  // the flush before the DDL, not past it
        } else {
            QCOMPARE(int(run.outcome.kind), int(task::SessionOutcome::Kind::Interrupted));
            QCOMPARE(scripts.control->persistedGlobal(), binlog.end());
        }
    }

    // online-ddl with pt-osc's statement sequence: the shadow's CREATE, its rows (the copy) and the trash's
    // DROP never run downstream; its ALTER runs once, on the real table, at the swap, and the rename does
    // not. The recorded state is persisted by the barrier flush after each of the change's DDLs, with the
    // points it belongs to. A resume from between the ALTER and the swap (state persisted), or from before
    // the CREATE with the state of a later point, still runs the ALTER exactly once; a resume from after
    // the ALTER with nothing recorded stops at the swap, naming the change, with nothing run.
    void anOnlineSchemaChangeRunsItsAlterOnceAtTheSwap_data() {
        QTest::addColumn<QString>("resume");
        QTest::addRow("one run through") << "none";
        QTest::addRow("resumed between the ALTER and the swap") << "between";
        QTest::addRow("resumed before the CREATE with a later state") << "before-create";
        QTest::addRow("resumed after the ALTER with nothing recorded") << "unrecorded";
    }
    void anOnlineSchemaChangeRunsItsAlterOnceAtTheSwap() {
        QFETCH(QString, resume);
        auto binlog = binlogOf(5);
        uint64_t create = binlog.ddl("CREATE TABLE `_t_new` LIKE `t`");
        binlog.ddl("ALTER TABLE _t_new ADD COLUMN extra INT");
        Scripts scripts;
        uint64_t copyStart = binlog.end();
        std::vector<int32_t> shadowIds;
        for (int32_t chunk = 0; chunk < 3; ++chunk) {
            // Ids far apart: the rows of t that follow continue from the shadow's last id.
            std::vector<int32_t> ids{1000000 + chunk * 100000, 1000001 + chunk * 100000};
            scripts.neverApplied.insert(binlog.insertTransaction(ids, "_t_new").start);
            shadowIds.insert(shadowIds.end(), ids.begin(), ids.end());
            appendTransactions(binlog, 2);
        }
        uint64_t swap = binlog.ddl("RENAME TABLE `t` TO `_t_old`, `_t_new` TO `t`");
        binlog.ddl("DROP TABLE IF EXISTS `_t_old`");
        appendTransactions(binlog, 5);
        const std::string recorded = "ALTER TABLE `seam`.`_t_new` ADD COLUMN extra INT";
        if (resume == "between" || resume == "unrecorded") {
            scripts.control->persistGlobalAt(test::kSyntheticFile, copyStart);
            scripts.appliedBefore = copyStart;
        } else if (resume == "before-create") {
            scripts.control->persistGlobalAt(test::kSyntheticFile, create);
            scripts.appliedBefore = create;
        }
        if (resume == "between" || resume == "before-create") {
            scripts.control->online = {{"seam", "_t_new", "seam", "t", {recorded}, {}}};
        }
        task::TaskSetup setup = makeSetup("seam_online");
        setup.onlineDdl = std::make_shared<const filter::OnlineDdlRules>();
        Run run = runPipeline(setup, binlog, scripts, [&] { return allCommitted(binlog, *scripts.session); });
        QVERIFY2(run.violation.empty(), run.violation.c_str());
        std::set<int32_t> executed = scripts.session->executedIds();
        for (int32_t id : shadowIds) {
            QVERIFY2(executed.count(id) == 0,
                     ("the shadow table's row id=" + std::to_string(id) + " was applied").c_str());
        }
        if (resume == "unrecorded") {
            QCOMPARE(int(run.outcome.kind), int(task::SessionOutcome::Kind::Failed));
            QVERIFY2(run.outcome.message.find("`seam`.`_t_new`") != std::string::npos &&
                         run.outcome.message.find("never read") != std::string::npos,
                     run.outcome.message.c_str());
            QVERIFY(scripts.control->ddlsRun.empty());
            QVERIFY(scripts.control->persistedGlobal() <= swap);  // never past the refused swap
            return;
        }
        QCOMPARE(int(run.outcome.kind), int(task::SessionOutcome::Kind::Interrupted));
        QCOMPARE(scripts.control->ddlsRun.size(), size_t(1));
        const std::string& ran = scripts.control->ddlsRun.front();
        QVERIFY2(
            ran.find("`seam`.`t` ADD COLUMN extra INT") != std::string::npos && ran.find("_t_new") == std::string::npos,
            ran.c_str());
        QCOMPARE(scripts.control->persistedGlobal(), binlog.end());
        std::lock_guard lock(scripts.control->mutex);
        QVERIFY(scripts.control->online.empty());
        // The barrier flushes that carried the change's rows, in order: created (run through only),
        // recorded, ended at the swap; each with its DDL's group inside its global point.
        std::vector<std::string> carried;
        for (const auto& plan : scripts.control->plans) {
            for (const auto& write : plan.onlineDdl) {
                carried.push_back(!write.entry ? "end" : std::to_string(write.entry->ddls.size()) + " ddls");
                QVERIFY(plan.globalPoint.position().offset() > create);
                if (!write.entry) {
                    QVERIFY(plan.globalPoint.position().offset() > swap);
                } else if (!write.entry->ddls.empty()) {
                    QCOMPARE(write.entry->ddls.front(), recorded);
                }
            }
        }
        std::vector<std::string> expected =
            resume == "between" ? std::vector<std::string>{"end"} : std::vector<std::string>{"0 ddls", "1 ddls", "end"};
        QCOMPARE(carried, expected);
    }

    // The DBA skips the failed transaction: its rows are never sent, every other row is, and the points
    // pass it only as the end of the skipped group (the point moves on, nothing of it is applied).
    void aSkippedTransactionIsNeverAppliedAndThePointPassesIt() {
        auto binlog = binlogOf(50);
        const auto skipped = binlog.transactions()[20];
        Scripts scripts;
        scripts.skippedStart = skipped.start;
        task::TaskSetup setup = makeSetup("seam_skip");
        task::SkipRequest skip{binlog::BinlogPosition(test::kSyntheticFile, skipped.start)};
        Run run = runPipeline(
            setup, binlog, scripts, [&] { return allCommitted(binlog, *scripts.session); }, {}, skip);
        QVERIFY2(run.violation.empty(), run.violation.c_str());
        QCOMPARE(int(run.outcome.kind), int(task::SessionOutcome::Kind::Interrupted));
        for (const auto& t : binlog.transactions()) {
            for (int32_t id : t.ids) {
                QCOMPARE(scripts.session->executedIds().count(id) != 0, t.start != skipped.start);
            }
        }
        QCOMPARE(scripts.control->persistedGlobal(), binlog.end());
    }

    // Resume from a point (the DBA's resume-from persists it as the global point): nothing before it is
    // sent again, everything after it is.
    void aResumeFromAPointSendsNothingBeforeIt() {
        auto binlog = binlogOf(50);
        const auto from = binlog.transactions()[29];
        Scripts scripts;
        scripts.control->persistGlobalAt(test::kSyntheticFile, from.end);
        scripts.appliedBefore = from.end;
        task::TaskSetup setup = makeSetup("seam_resume");
        Run run = runPipeline(setup, binlog, scripts, [&] { return allCommitted(binlog, *scripts.session); });
        QVERIFY2(run.violation.empty(), run.violation.c_str());
        for (const auto& t : binlog.transactions()) {
            for (int32_t id : t.ids) {
                QCOMPARE(scripts.session->executedIds().count(id) != 0, t.start >= from.end);
            }
        }
        QCOMPARE(scripts.control->persistedGlobal(), binlog.end());
    }

    // Writing the checkpoint fails (the downstream went away): the session stops, retryable, and the store
    // keeps the previous checkpoint whole; no row was sent past the exit-safe mark that was persisted.
    void aFailedCheckpointWriteKeepsThePreviousCheckpoint_data() {
        QTest::addColumn<int>("writesBefore");
        QTest::addRow("the first exit-safe mark") << 0;
        QTest::addRow("a later flush") << 4;
    }
    void aFailedCheckpointWriteKeepsThePreviousCheckpoint() {
        QFETCH(int, writesBefore);
        auto binlog = binlogOf(300);
        Scripts scripts;
        scripts.control->failWritesWithCode = kLostConnection;
        scripts.control->writesBeforeFailure = static_cast<size_t>(writesBefore);
        scripts.session->commitDelay = std::chrono::milliseconds(2);
        task::TaskSetup setup = makeSetup("seam_write");
        setup.exitSafeStepBytes = 4096;  // marks every few dozen transactions
        Run run = runPipeline(
            setup, binlog, scripts, [] { return false; }, std::chrono::microseconds(500));
        QVERIFY2(run.violation.empty(), run.violation.c_str());
        QCOMPARE(int(run.outcome.kind), int(task::SessionOutcome::Kind::Failed));
        QVERIFY(run.outcome.retryable);
        QVERIFY2(run.outcome.message.find("scripted failure writing") != std::string::npos,
                 run.outcome.message.c_str());
        QVERIFY(scripts.control->persistedGlobal() < binlog.end());
        QCOMPARE(scripts.control->writes, size_t(writesBefore));
        if (writesBefore == 0) {
            QCOMPARE(scripts.control->persistedGlobal(), uint64_t(4));
            QVERIFY(scripts.session->executedIds().empty());
        }
    }
};

QTEST_GUILESS_MAIN(PipelineSeamsTest)
#include "test_pipeline_seams.moc"
