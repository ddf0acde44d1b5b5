// docs/design.md invariant 7 under outages: `syncscope-cli run --listen` keeps a sysbench write workload in
// sync while the downstream is restarted three times, the upstream rotates its binlog (FLUSH BINARY
// LOGS) and the upstream is restarted once. Nobody touches the control API: the task must resume by
// itself (with backoff) each time, and afterwards every table equals its upstream twin (CHECKSUM TABLE
// and row counts) and /api/v1/status shows the task Running with no failed event.
#include <QtTest>

#include <algorithm>

#include <QProcess>
#include <QTemporaryDir>

#include <chrono>
#include <thread>

#include "tests/engine/control/prometheus_text_parser.h"
#include "tests/integration/outage/engine_process.h"
#include "tests/integration/outage/outage_helpers.h"
#include "tests/support/task_files.h"
#include "tests/support/test_env.h"

using nlohmann::json;
using namespace syncscope::test;

namespace {

const char* const kDatabase = "sbout";
constexpr int kTables = 4;
constexpr int kTableSize = 1000;
constexpr int kDownstreamRestarts = 3;
constexpr double kSecondsDown = 1;
constexpr int kLoadWithDownstreamOutagesSeconds = 45;
constexpr int kLoadAroundUpstreamRestartSeconds = 20;
constexpr int kLoadAfterUpstreamRestartSeconds = 5;
constexpr int kSysbenchGraceMs = 60000;
constexpr int kResumeTimeoutMs = 90000;
constexpr int kCatchUpTimeoutMs = 120000;

double secondsSince(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

class OutageTest : public QObject {
    Q_OBJECT

private:
    // Waits until the engine applies again after an outage: Running, and the downstream moves.
    bool waitUntilApplyingAgain(EngineProcess& engine, const char* after) {
        auto start = std::chrono::steady_clock::now();
        std::string before = tableFingerprint(downstreamRoot(), kDatabase, kTables);
        bool back = waitFor(
            [&] {
                return engine.stage() == "Running" && tableFingerprint(downstreamRoot(), kDatabase, kTables) != before;
            },
            kResumeTimeoutMs);
        qInfo("applying again %.1f s after %s", secondsSince(start), after);
        return back;
    }

private slots:
    void tablesEqualUpstreamAfterThreeDownstreamRestartsARotationAndAnUpstreamRestart() {
        auto begin = std::chrono::steady_clock::now();
        for (const ServerSettings& server : {upstreamRoot(), downstreamRoot()}) {
            auto connection = connectTo(server);
            connection->execute("SET SESSION sql_log_bin = 0");
            connection->execute(std::string("DROP DATABASE IF EXISTS ") + kDatabase);
            connection->execute(std::string("CREATE DATABASE ") + kDatabase);
        }
        connectTo(downstreamRoot())->execute("DROP DATABASE IF EXISTS dm_meta");
        auto master = connectTo(upstreamRoot())->query("SHOW MASTER STATUS");

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        TaskFileOptions options;
        options.name = "outage-task";
        options.binlogName = *master.front()[0];
        options.binlogPos = std::stoull(*master.front()[1]);
        options.instanceExtra = "    block-allow-list: \"only-sbout\"\n";
        options.topLevelExtra = "block-allow-list:\n  only-sbout: {do-dbs: [\"sbout\"]}\n";
        TaskFiles files = writeTaskFiles(dir.path().toStdString(), options);
        std::string logDir = dir.filePath(QStringLiteral("logs")).toStdString();

        QProcess prepare;
        prepare.start(QStringLiteral("sysbench"), sysbenchArgs(kDatabase, kTables, kTableSize, 0, "prepare"));
        QVERIFY2(prepare.waitForFinished(kSysbenchGraceMs * 2) && prepare.exitCode() == 0,
                 prepare.readAllStandardError().constData());

        EngineProcess engine(files.task, files.source, logDir);
        QVERIFY2(engine.start(), engine.stderrText().c_str());
        QVERIFY2(waitFor([&] { return engine.stage() == "Running"; }, kResumeTimeoutMs), engine.stderrText().c_str());

        // Phase 1: the downstream restarts three times under load; the upstream rotates its binlog.
        QProcess load;
        load.start(QStringLiteral("sysbench"),
                   sysbenchArgs(kDatabase, kTables, kTableSize, kLoadWithDownstreamOutagesSeconds, "run"));
        QVERIFY(load.waitForStarted());
        for (int restart = 1; restart <= kDownstreamRestarts; ++restart) {
            std::this_thread::sleep_for(std::chrono::seconds(2));
            if (restart == 2) {
                connectTo(upstreamRoot())->execute("FLUSH BINARY LOGS");
            }
            RestartResult restarted = restartServer("down", kSecondsDown);
            QVERIFY2(restarted.ok, restarted.output.c_str());
            std::string what = "downstream restart " + std::to_string(restart);
            QVERIFY2(waitUntilApplyingAgain(engine, what.c_str()),
                     (what + ": " + engine.status().dump(2) + "\n" + engine.stderrText()).c_str());
        }
        QVERIFY(load.waitForFinished(kLoadWithDownstreamOutagesSeconds * 1000 + kSysbenchGraceMs));
        QVERIFY2(load.exitCode() == 0, load.readAllStandardError().constData());

        // Phase 2: the upstream restarts under load. sysbench does not survive its server's restart,
        // so that run may end early; a third run after it must succeed.
        load.start(QStringLiteral("sysbench"),
                   sysbenchArgs(kDatabase, kTables, kTableSize, kLoadAroundUpstreamRestartSeconds, "run"));
        QVERIFY(load.waitForStarted());
        std::this_thread::sleep_for(std::chrono::seconds(3));
        RestartResult restarted = restartServer("up", kSecondsDown);
        QVERIFY2(restarted.ok, restarted.output.c_str());
        QVERIFY(load.waitForFinished(kLoadAroundUpstreamRestartSeconds * 1000 + kSysbenchGraceMs));
        qInfo("sysbench across the upstream restart exited with %d", load.exitCode());
        load.start(QStringLiteral("sysbench"),
                   sysbenchArgs(kDatabase, kTables, kTableSize, kLoadAfterUpstreamRestartSeconds, "run"));
        QVERIFY(load.waitForFinished(kLoadAfterUpstreamRestartSeconds * 1000 + kSysbenchGraceMs));
        QVERIFY2(load.exitCode() == 0, load.readAllStandardError().constData());

        // Every table equals its upstream twin, with nobody having resumed the task by hand.
        std::string upstream = tableFingerprint(upstreamRoot(), kDatabase, kTables);
        QVERIFY2(upstream.find("ERROR") == std::string::npos, upstream.c_str());
        auto catchUp = std::chrono::steady_clock::now();
        bool equal = waitFor([&] { return tableFingerprint(downstreamRoot(), kDatabase, kTables) == upstream; },
                             kCatchUpTimeoutMs);
        qInfo("caught up %.1f s after the last write", secondsSince(catchUp));
        QVERIFY2(equal, ("downstream " + tableFingerprint(downstreamRoot(), kDatabase, kTables) + " != upstream " +
                         upstream + "\n" + engine.status().dump(2) + "\n" + engine.stderrText())
                            .c_str());

        json status = engine.status();
        QCOMPARE(status.value("stage", std::string()), std::string("Running"));
        QVERIFY2(status["failed_event"].is_null(), status.dump(2).c_str());
        qInfo("status after the outages: total_rows %llu, total_events %llu",
              static_cast<unsigned long long>(status.value("total_rows", uint64_t{0})),
              static_cast<unsigned long long>(status.value("total_events", uint64_t{0})));
        // The persisted point reaches the upstream's position once the stream is idle.
        auto now = connectTo(upstreamRoot())->query("SHOW MASTER STATUS");
        std::string masterText = "(" + *now.front()[0] + ", " + *now.front()[1] + ")";
        QVERIFY2(waitFor(
                     [&] {
                         json s = engine.status();
                         return s.value("master_binlog", std::string()) == masterText &&
                                s.value("syncer_binlog", std::string()) == masterText;
                     },
                     kResumeTimeoutMs),
                 engine.status().dump(2).c_str());

        // /metrics counts every retryable failure and no failure that needed the DBA.
        PrometheusPage page = parsePrometheusText(engine.get("/metrics"));
        QVERIFY2(page.error.empty(), page.error.c_str());
        QCOMPARE(page.value("syncscope_stage", {{"stage", "Running"}}), std::optional<double>(1));
        QCOMPARE(page.value("syncscope_errors_total", {{"class", "needs_dba"}}), std::optional<double>(0));
        double retryable = page.value("syncscope_errors_total", {{"class", "retryable"}}).value_or(0);
        qInfo("syncscope_errors_total{class=\"retryable\"} %.0f", retryable);
        QVERIFY(retryable >= kDownstreamRestarts);

        // Resumed by itself: the log shows the retries, the audit log no operator action.
        std::string log = readWholeFile(logDir + "/outage-task.log");
        size_t retries = 0;
        for (size_t at = log.find("resuming by itself"); at != std::string::npos;
             at = log.find("resuming by itself", at + 1)) {
            ++retries;
            size_t lineStart = log.rfind('\n', at);
            lineStart = lineStart == std::string::npos ? 0 : lineStart + 1;
            qInfo("%s", log.substr(lineStart, log.find('\n', at) - lineStart).c_str());
        }
        for (size_t at = log.find("retryable: "); at != std::string::npos; at = log.find("retryable: ", at + 1)) {
            qInfo("%s", log.substr(at, std::min<size_t>(log.find('\n', at) - at, 300)).c_str());
        }
        qInfo("the task resumed by itself after %zu retryable failures", retries);
        QVERIFY2(retries >= kDownstreamRestarts, log.c_str());
        // The retries are the engine's own: the audit holds the DBA's start and nothing else.
        const std::string audit = readWholeFile(logDir + "/outage-task-audit.jsonl");
        QVERIFY2(std::count(audit.begin(), audit.end(), '\n') == 1 &&
                     audit.find("\"action\":\"start\"") != std::string::npos,
                 audit.c_str());
        QVERIFY2(audit.find("(none)") == std::string::npos, audit.c_str());
        QCOMPARE(engine.terminate(), 0);
        qInfo("outage scenario took %.1f s", secondsSince(begin));
    }
};

QTEST_GUILESS_MAIN(OutageTest)
#include "test_outages.moc"
