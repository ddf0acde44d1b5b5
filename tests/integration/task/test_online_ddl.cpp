// `online-ddl: true` (DM's dm/syncer/online-ddl-tools) on the private pair: pt-online-schema-change (the real
// tool) and gh-ost (its statement sequence replayed by hand, the tool is not installed) alter tables upstream
// while the engine runs, is SIGKILLed and restarted, or stops at chosen binlog points. The tools' shadow and
// trash tables and pt-osc's triggers never exist downstream (a watcher polls every 100 ms); the ALTER made on
// the shadow is applied to the real table once, at the swap; the downstream ends equal to the upstream
// (CHECKSUM TABLE and SHOW CREATE TABLE) and <task>_onlineddl holds no row for a finished change. Without
// the key the shadow table is an ordinary table, and a start between a shadow's ALTER and its swap with no
// recorded state is refused, naming the change.
#include <QtTest>

#include <nlohmann/json.hpp>

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <thread>

#include "engine/source/upstream_connection.h"
#include "tests/integration/outage/engine_process.h"
#include "tests/integration/outage/outage_helpers.h"
#include "tests/integration/task/ghost_tool_replay.h"
#include "tests/integration/task/online_ddl_fixture.h"
#include "tests/integration/task/shadow_watch.h"
#include "tests/support/task_files.h"
#include "tests/support/test_env.h"

using syncscope::source::UpstreamConnection;
using namespace syncscope::test;

namespace {

const char* const kPtOsc = "/usr/bin/pt-online-schema-change";
// DM's default rules (table names only): shadow ^_(.+)_(?:new|gho)$, trash ^_(.+)_(?:ghc|del|old)$.
const char* const kDefaultToolTables = "^_(.+)_(new|gho|ghc|del|old)$";
const char* const kCustomToolTables = "^_(.+)_(shadow|trash)$";
constexpr int kCatchUpMs = 120000;
constexpr int kToolTimeoutMs = 120000;
constexpr int kRunTimeoutMs = 120000;
constexpr int kStopPointWaitMs = 60000;
constexpr auto kComparePause = std::chrono::milliseconds(300);
constexpr size_t kStderrTail = 3000;

std::string tail(const std::string& text) {
    return text.size() > kStderrTail ? "..." + text.substr(text.size() - kStderrTail) : text;
}

bool contains(const std::string& text, const std::string& fragment) {
    return text.find(fragment) != std::string::npos;
}

// One sysbench table of `rows` rows, written at `rate` transactions a second for up to 5 minutes.
QStringList sysbenchArgs(const std::string& schema, int rows, int rate, const char* command) {
    return syncscope::test::sysbenchArgs(schema, 1, rows, 300, command, rate);
}

// pt-osc as a DBA runs it without replicas to look at, in fixed chunks; `paced` sleeps 0.1 s after each chunk
// (so that a run lasts a few seconds and the engine's kills land inside it).
QStringList ptOscArgs(const std::string& schema, const std::string& table, const std::string& alter, int chunkSize,
                      bool paced = false) {
    auto up = upstreamRoot();
    QStringList args{QStringLiteral("--execute"), QStringLiteral("--no-check-replication-filters"),
                     QStringLiteral("--recursion-method=none"), QStringLiteral("--alter"),
                     QString::fromStdString(alter)};
    args << QStringLiteral("--chunk-size=%1").arg(chunkSize) << QStringLiteral("--chunk-time=0");
    // The workload's writes may hold a lock the tool waits for: retry as a DBA would, not fail the test. The
    // tool's own lock wait of 1 s ran out 10 times in a row on a busy 2-core machine (a chunk's INSERT ...
    // SELECT behind the workload's transactions): 10 s, as a DBA would give it on a loaded primary.
    args << QStringLiteral("--tries=create_triggers:10:0.2,drop_triggers:10:0.2,copy_rows:10:0.2,swap_tables:10:0.2");
    args << QStringLiteral("--set-vars=innodb_lock_wait_timeout=10");
    if (paced) {
        args << QStringLiteral("--sleep=0.1");
    }
    args << QString::fromStdString("h=127.0.0.1,P=" + std::to_string(up.port) + ",u=" + up.user + ",p=" + up.password +
                                   ",D=" + schema + ",t=" + table);
    return args;
}

struct TaskRun {
    std::string name;
    std::string schema;
    TaskFiles files;
    std::string logDir;

    QStringList runArgs() const {
        return {QStringLiteral("run"),       QString::fromStdString(files.task),
                QStringLiteral("--source"),  QString::fromStdString(files.source),
                QStringLiteral("--log-dir"), QString::fromStdString(logDir)};
    }
};

// Where a pt-osc change of the phases slot lies in the upstream binlog.
struct PtOscChange {
    BinlogPoint start;  // before the table was created
    BinlogPoint shadowCreate, shadowAlter, midCopy, lastCopy, swap, trashDrop;
    std::string description;
};

}  // namespace

class OnlineDdlTest : public QObject {
    Q_OBJECT

    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    std::string dir_;  // the tasks' files and the engine's logs, kept after the run
    std::mt19937 random_{20261204};
    std::optional<PtOscChange> phases_;

    TaskRun writeTask(const std::string& name, const std::string& schema, const BinlogPoint& start,
                      const std::string& onlineDdlYaml, int flushIntervalSeconds = 1) {
        TaskFileOptions options;
        options.name = name;
        options.flushIntervalSeconds = flushIntervalSeconds;
        options.binlogName = start.file;
        options.binlogPos = start.pos;
        options.multipleRows = true;
        options.instanceExtra = "    block-allow-list: \"only-" + schema + "\"\n";
        options.topLevelExtra =
            onlineDdlYaml + "block-allow-list:\n  only-" + schema + ": {do-dbs: [\"" + schema + "\"]}\n";
        std::string folder = dir_ + "/" + name;
        QDir().mkpath(QString::fromStdString(folder));
        return {name, schema, writeTaskFiles(folder, options), folder + "/logs"};
    }

    // A fresh task and schema: dropped and created on both servers without binlog, the task's meta gone.
    BinlogPoint freshStart(const std::string& task, const std::string& schema) {
        resetSchema(*up_, schema);
        resetSchema(*down_, schema);
        dropTaskMeta(*down_, task);
        return masterPoint(*up_);
    }

    // The watcher must see what it looks for: a table of the watched names made downstream for a moment.
    void checkWatchSees(ShadowWatch& watch, const std::string& schema, const std::string& probe) {
        down_->execute("CREATE TABLE `" + schema + "`.`" + probe + "` (id INT PRIMARY KEY)");
        bool seen = waitFor([&] { return watch.saw("table " + schema + "." + probe); }, 10000);
        down_->execute("DROP TABLE `" + schema + "`.`" + probe + "`");
        QVERIFY2(seen, ("the watcher never saw " + probe + "; polls " + std::to_string(watch.polls()) + ", failures " +
                        joined(watch.failures()))
                           .c_str());
        // A poll that began before the DROP may still report the probe: forget it only after two more.
        const int polled = watch.polls();
        QVERIFY(waitFor([&] { return watch.polls() >= polled + 2; }, 10000));
        watch.clear();
    }

    void expectWatchSawNothing(ShadowWatch& watch, const std::string& what) {
        watch.stop();
        QVERIFY2(watch.polls() > 0, ("the watcher never polled: " + joined(watch.failures())).c_str());
        QVERIFY2(watch.sightings().empty(),
                 ("downstream held " + what + ": " + joined(watch.sightings(), "; ")).c_str());
    }

    // Starts the engine without a stop point, waits until the downstream schema equals the (quiet) upstream,
    // stops it gracefully. Empty when equal and exit 0; else both states and the engine's last words.
    std::string catchUp(const TaskRun& task) {
        std::string upstream = schemaState(*up_, task.schema);
        EngineProcess engine(task.files.task, task.files.source, task.logDir);
        if (!engine.start()) {
            return "the engine did not start:\n" + tail(engine.stderrText());
        }
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kCatchUpMs);
        std::string downstream = schemaState(*down_, task.schema);
        std::string stage;
        while (downstream != upstream && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(kComparePause);
            downstream = schemaState(*down_, task.schema);
            nlohmann::json status = engine.status();
            if (status.is_object() && status.value("stage", "") == "Error") {
                stage = "stage Error: " + status.value("stage_reason", "");
                break;
            }
        }
        int exitCode = engine.terminate();
        if (downstream != upstream) {
            return "downstream differs from upstream " + stage + "\n--- upstream\n" + upstream + "--- downstream\n" +
                   downstream + "--- engine stderr (all in " + task.logDir + ")\n" + tail(engine.stderrText());
        }
        if (exitCode != 0) {
            return "equal, but the graceful stop exited " + std::to_string(exitCode) + "\n" + tail(engine.stderrText());
        }
        return {};
    }

    void expectNoChangeLeft(const TaskRun& task) {
        auto rows = onlineDdlRows(*down_, task.name, task.schema);
        QVERIFY2(rows.has_value(), ("no dm_meta." + task.name + "_onlineddl table downstream").c_str());
        QVERIFY2(rows->empty(),
                 ("dm_meta." + task.name + "_onlineddl still holds finished changes: " + joined(*rows)).c_str());
    }

    // Runs a pt-osc change to its end; its merged output on failure.
    std::string runPtOsc(const std::string& schema, const std::string& table, const std::string& alter, int chunk) {
        QProcess tool;
        tool.setProcessChannelMode(QProcess::MergedChannels);
        tool.start(QString::fromLatin1(kPtOsc), ptOscArgs(schema, table, alter, chunk));
        if (!tool.waitForFinished(kToolTimeoutMs) || tool.exitCode() != 0) {
            return "pt-online-schema-change --alter \"" + alter + "\" failed:\n" + tool.readAll().toStdString();
        }
        return {};
    }

    std::string sysbenchPrepare(const std::string& schema, int rows) {
        QProcess prepare;
        prepare.start(QStringLiteral("sysbench"), sysbenchArgs(schema, rows, 0, "prepare"));
        if (!prepare.waitForFinished(kToolTimeoutMs) || prepare.exitCode() != 0) {
            return "sysbench prepare failed: " + prepare.readAllStandardError().toStdString();
        }
        return {};
    }

    // pt-osc run once upstream while the engine is stopped (sysbench writing meanwhile), and where its
    // statements lie in the binlog.
    void preparePtOscChange() {
        const std::string schema = "osc_ph";
        PtOscChange change;
        change.start = freshStart(schema, schema);
        std::string failure = sysbenchPrepare(schema, 5000);
        QVERIFY2(failure.empty(), failure.c_str());
        QProcess workload;
        workload.start(QStringLiteral("sysbench"), sysbenchArgs(schema, 5000, 30, "run"));
        QVERIFY(workload.waitForStarted());
        std::this_thread::sleep_for(std::chrono::seconds(1));
        failure =
            runPtOsc(schema, "sbtest1", "ADD COLUMN note VARCHAR(16) NOT NULL DEFAULT 'osc', ADD INDEX (pad)", 500);
        std::this_thread::sleep_for(std::chrono::seconds(1));
        workload.kill();
        workload.waitForFinished();
        QVERIFY2(failure.empty(), failure.c_str());

        auto events = binlogEventsSince(*up_, change.start);
        auto one = [&](const char* type, const std::string& fragment, BinlogPoint& point) {
            auto found = eventsWith(events, type, fragment);
            QVERIFY2(found.size() == 1, ("expected one " + std::string(type) + " event with \"" + fragment +
                                         "\" after " + change.start.text() + ", found " + std::to_string(found.size()))
                                            .c_str());
            point = found.front().at;
            change.description +=
                std::string(type) + " " + point.text() + ": " + found.front().info.substr(0, 90) + "\n";
        };
        one("Query", "CREATE TABLE `osc_ph`.`_sbtest1_new`", change.shadowCreate);
        one("Query", "ALTER TABLE `osc_ph`.`_sbtest1_new`", change.shadowAlter);
        one("Query", "RENAME TABLE `osc_ph`.`sbtest1` TO `osc_ph`.`_sbtest1_old`", change.swap);
        one("Query", "DROP TABLE IF EXISTS `_sbtest1_old`", change.trashDrop);
        if (QTest::currentTestFailed()) {
            return;
        }
        auto copies = eventsWith(events, "Annotate_rows", "IGNORE INTO `osc_ph`.`_sbtest1_new`");
        QVERIFY2(copies.size() >= 4, ("pt-osc copied in " + std::to_string(copies.size()) + " chunks").c_str());
        change.midCopy = copies[copies.size() / 2].at;
        change.lastCopy = copies.back().at;
        change.description += "copy chunks " + copies.front().at.text() + " .. " + change.lastCopy.text() + "\n";
        phases_ = change;
    }

private slots:
    void initTestCase() {
        dir_ = outputDir("test_online_ddl");
        std::filesystem::remove_all(dir_);
        dir_ = outputDir("test_online_ddl");
        up_ = std::make_unique<UpstreamConnection>(engineSettings(upstreamRoot()));
        down_ = std::make_unique<UpstreamConnection>(engineSettings(downstreamRoot()));
    }

    // pt-osc (the real tool) makes four changes to a sysbench table while sysbench writes to it; the engine is
    // SIGKILLed at random moments throughout and restarted.
    void ptOscChangesSurviveSigkillsAndNeverShowDownstream() {
        QVERIFY2(QFileInfo::exists(QString::fromLatin1(kPtOsc)),
                 "pt-online-schema-change is not installed (percona-toolkit, scripts/setup-deps)");
        const std::string schema = "osc_pt";
        TaskRun task = writeTask(schema, schema, freshStart(schema, schema), "online-ddl: true\n");
        ShadowWatch watch(schema, kDefaultToolTables);
        checkWatchSees(watch, schema, "_probe_new");
        if (QTest::currentTestFailed()) {
            return;
        }
        std::string failure = sysbenchPrepare(schema, 20000);
        QVERIFY2(failure.empty(), failure.c_str());
        QProcess workload;
        workload.start(QStringLiteral("sysbench"), sysbenchArgs(schema, 20000, 40, "run"));
        QVERIFY(workload.waitForStarted());

        const std::vector<std::string> alters = {"ADD COLUMN note VARCHAR(16) NOT NULL DEFAULT 'osc'",
                                                 "ADD INDEX (pad)", "MODIFY c VARCHAR(130) NOT NULL DEFAULT ''",
                                                 "DROP COLUMN note"};
        std::uniform_int_distribution<int> lifetimeMs(400, 1800);
        int kills = 0;
        EngineProcess engine(task.files.task, task.files.source, task.logDir);
        for (const auto& alter : alters) {
            QProcess tool;
            tool.setProcessChannelMode(QProcess::MergedChannels);
            tool.start(QString::fromLatin1(kPtOsc), ptOscArgs(schema, "sbtest1", alter, 1000, true));
            QVERIFY(tool.waitForStarted());
            while (tool.state() != QProcess::NotRunning) {
                QVERIFY2(engine.start(), ("the engine did not start:\n" + tail(engine.stderrText())).c_str());
                int lifetime = lifetimeMs(random_);
                tool.waitForFinished(lifetime);
                QVERIFY2(engine.running(), ("the engine ended by itself:\n" + tail(engine.stderrText())).c_str());
                BinlogPoint upstreamAt = masterPoint(*up_);
                engine.kill();
                ++kills;
                qInfo("SIGKILL %d during \"%s\" after %d ms, upstream at %s", kills, alter.c_str(), lifetime,
                      upstreamAt.text().c_str());
            }
            QVERIFY2(
                tool.exitStatus() == QProcess::NormalExit && tool.exitCode() == 0,
                ("pt-online-schema-change --alter \"" + alter + "\" failed:\n" + tool.readAll().toStdString()).c_str());
        }
        workload.kill();
        workload.waitForFinished();
        qInfo("%d SIGKILLs during %zu pt-osc changes", kills, alters.size());

        std::string difference = catchUp(task);
        QVERIFY2(difference.empty(), difference.c_str());
        expectWatchSawNothing(watch, "pt-osc's shadow, trash tables or triggers");
        expectNoChangeLeft(task);
    }

    // One pt-osc change made while the engine was stopped; the engine then stops exactly at a phase of it
    // (--until: gracefully, or paused there and SIGKILLed) and is restarted without a stop point.
    void ptOscChangeResumesFromEveryPhase_data() {
        QTest::addColumn<QString>("phase");
        QTest::addColumn<bool>("sigkill");
        QTest::addRow("after_shadow_alter_stopped") << QStringLiteral("alter") << false;
        QTest::addRow("mid_copy_stopped") << QStringLiteral("mid_copy") << false;
        QTest::addRow("mid_copy_sigkilled") << QStringLiteral("mid_copy") << true;
        QTest::addRow("before_swap_stopped") << QStringLiteral("last_copy") << false;
        QTest::addRow("after_swap_stopped") << QStringLiteral("swap") << false;
        QTest::addRow("after_swap_sigkilled") << QStringLiteral("swap") << true;
        // Killed the moment the swap's ALTER shows downstream, before a checkpoint (flushed every 30 s) passes
        // the RENAME: the restart replays the swap over a table that already has its ALTER.
        QTest::addRow("swap_applied_then_sigkilled") << QStringLiteral("swap_applied") << true;
    }

    void ptOscChangeResumesFromEveryPhase() {
        QFETCH(QString, phase);
        QFETCH(bool, sigkill);
        QVERIFY2(QFileInfo::exists(QString::fromLatin1(kPtOsc)),
                 "pt-online-schema-change is not installed (percona-toolkit, scripts/setup-deps)");
        if (!phases_) {
            preparePtOscChange();
            if (QTest::currentTestFailed()) {
                return;
            }
            qInfo("the pt-osc change in the upstream binlog:\n%s", phases_->description.c_str());
        }
        const std::string schema = "osc_ph";
        resetSchema(*down_, schema);
        dropTaskMeta(*down_, schema);
        const bool swapApplied = phase == QStringLiteral("swap_applied");
        TaskRun task = writeTask(schema, schema, phases_->start, "online-ddl: true\n", swapApplied ? 30 : 1);
        ShadowWatch watch(schema, kDefaultToolTables);
        const bool beforeSwap = phase != QStringLiteral("swap");
        const BinlogPoint& stop = phase == QStringLiteral("alter")       ? phases_->shadowAlter
                                  : phase == QStringLiteral("mid_copy")  ? phases_->midCopy
                                  : phase == QStringLiteral("last_copy") ? phases_->lastCopy
                                                                         : phases_->swap;
        const QStringList until{QStringLiteral("--until"), QString::fromStdString(stop.text())};
        if (swapApplied) {
            EngineProcess engine(task.files.task, task.files.source, task.logDir);
            QVERIFY2(engine.start(), tail(engine.stderrText()).c_str());
            bool applied = waitFor(
                [&] { return contains(tableDefinition(*down_, schema, "sbtest1"), "`note`") || !engine.running(); },
                kStopPointWaitMs);
            engine.kill();
            QVERIFY2(applied, ("the swap's ALTER never showed downstream:\n" + tail(engine.stderrText())).c_str());
        } else if (!sigkill) {
            CliResult run = runCli(task.runArgs() + until, kRunTimeoutMs);
            QVERIFY2(run.exitCode == 0,
                     ("run --until " + stop.text() + " exited " + std::to_string(run.exitCode) + ":\n" + tail(run.err))
                         .c_str());
            std::string definition = tableDefinition(*down_, schema, "sbtest1");
            QVERIFY2(contains(definition, "`note`") != beforeSwap,
                     ("stopped at " + stop.text() + (beforeSwap ? " (before" : " (after") +
                      " the swap), the downstream sbtest1 is:\n" + definition)
                         .c_str());
            auto rows = onlineDdlRows(*down_, task.name, schema);
            QVERIFY2(rows.has_value(),
                     ("no dm_meta." + task.name + "_onlineddl after a stop at " + stop.text()).c_str());
            bool recorded =
                rows->size() == 1 && contains(rows->front(), "_sbtest1_new") && contains(rows->front(), "note");
            QVERIFY2(recorded == beforeSwap,
                     ("stopped at " + stop.text() + ", dm_meta." + task.name + "_onlineddl holds: " + joined(*rows) +
                      (beforeSwap ? " (expected the shadow's ALTER)" : " (expected nothing)"))
                         .c_str());
            // `status` says the same without an engine: the change recorded, its DDL waiting for the swap.
            CliResult status =
                runCli({QStringLiteral("status"), QString::fromStdString(task.files.task), QStringLiteral("--source"),
                        QString::fromStdString(task.files.source), QStringLiteral("--json")},
                       kRunTimeoutMs);
            QVERIFY2(status.exitCode == 0,
                     ("status exited " + std::to_string(status.exitCode) + ":\n" + status.err).c_str());
            nlohmann::json answer = nlohmann::json::parse(status.out, nullptr, false);
            QVERIFY2(answer.is_object() && answer["online_schema_changes"].is_array(), status.out.c_str());
            const auto& changes = answer["online_schema_changes"];
            QCOMPARE(changes.size(), size_t(beforeSwap ? 1 : 0));
            if (beforeSwap) {
                QCOMPARE(changes[0]["table"].get<std::string>(), std::string("sbtest1"));
                QCOMPARE(changes[0]["shadow_table"].get<std::string>(), std::string("_sbtest1_new"));
                QVERIFY2(contains(changes[0]["ddls"].dump(), "note"), changes.dump().c_str());
            }
        } else {
            EngineProcess engine(task.files.task, task.files.source, task.logDir);
            QVERIFY2(engine.start(until), tail(engine.stderrText()).c_str());
            bool paused = waitFor([&] { return engine.stage() == "Paused" || !engine.running(); }, kStopPointWaitMs);
            QVERIFY2(paused && engine.running(),
                     ("not paused at " + stop.text() + ": " + engine.status().dump() + "\n" + tail(engine.stderrText()))
                         .c_str());
            engine.kill();
        }
        std::string difference = catchUp(task);
        QVERIFY2(difference.empty(), (phases_->description + difference).c_str());
        expectWatchSawNothing(watch, "pt-osc's shadow, trash tables or triggers");
        expectNoChangeLeft(task);
    }

    // gh-ost's statements (changelog, ghost, copy, binlog-applied writes, atomic cut-over) while the
    // application writes; the engine is SIGKILLed mid-copy and right after the cut-over.
    void ghostChangeSurvivesSigkillsAndNeverShowsDownstream() {
        const std::string schema = "osc_gho";
        TaskRun task = writeTask(schema, schema, freshStart(schema, schema), "online-ddl: true\n");
        ShadowWatch watch(schema, kDefaultToolTables);
        checkWatchSees(watch, schema, "_probe_gho");
        if (QTest::currentTestFailed()) {
            return;
        }
        GhostToolReplay app(*up_, schema, 20261205);
        app.createAppTable(3000);
        EngineProcess engine(task.files.task, task.files.source, task.logDir);
        QVERIFY2(engine.start(), tail(engine.stderrText()).c_str());
        app.churn(30);
        auto restart = [&] {
            engine.kill();
            engine.start();
        };
        app.runChange({"_t_gho", "_t_del", "_t_ghc", "/* gh-ost */"},
                      "ADD COLUMN extra VARCHAR(16) NOT NULL DEFAULT 'gho', ADD INDEX (c)", restart, [&] {
                          std::this_thread::sleep_for(std::chrono::milliseconds(300));
                          restart();
                      });
        app.churn(30);
        QVERIFY2(engine.running(), ("the engine ended by itself:\n" + tail(engine.stderrText())).c_str());
        engine.kill();

        std::string difference = catchUp(task);
        QVERIFY2(difference.empty(), difference.c_str());
        expectWatchSawNothing(watch, "gh-ost's ghost, changelog or trash tables");
        expectNoChangeLeft(task);
    }

    // shadow-table-rules and trash-table-rules name a made-up tool's tables and replace DM's defaults: its
    // _t_shadow and _t_trash never show, while a _u_new table is an ordinary table.
    void customRulesNameAnotherToolsTables() {
        const std::string schema = "osc_custom";
        TaskRun task = writeTask(schema, schema, freshStart(schema, schema),
                                 "online-ddl: true\nshadow-table-rules: [\"^_(.+)_shadow$\"]\n"
                                 "trash-table-rules: [\"^_(.+)_trash$\"]\n");
        ShadowWatch watch(schema, kCustomToolTables);
        checkWatchSees(watch, schema, "_probe_shadow");
        if (QTest::currentTestFailed()) {
            return;
        }
        GhostToolReplay app(*up_, schema, 20261206);
        app.createAppTable(2000);
        up_->execute("CREATE TABLE `" + schema + "`._u_new (id INT PRIMARY KEY, v INT NOT NULL)");
        up_->execute("INSERT INTO `" + schema + "`._u_new SELECT seq, seq * 2 FROM `" + schema + "`.seq_1_to_100");
        EngineProcess engine(task.files.task, task.files.source, task.logDir);
        QVERIFY2(engine.start(), tail(engine.stderrText()).c_str());
        app.runChange(
            {"_t_shadow", "_t_trash", "", ""}, "ADD COLUMN extra INT NOT NULL DEFAULT 5, ADD INDEX (c)",
            [&] {
                engine.kill();
                engine.start();
            },
            [] {});
        up_->execute("ALTER TABLE `" + schema + "`._u_new ADD COLUMN w INT NOT NULL DEFAULT 0");
        app.churn(20);
        QVERIFY2(engine.running(), ("the engine ended by itself:\n" + tail(engine.stderrText())).c_str());
        engine.kill();

        std::string difference = catchUp(task);
        QVERIFY2(difference.empty(), difference.c_str());
        expectWatchSawNothing(watch, "the custom tool's shadow or trash tables");
        expectNoChangeLeft(task);
    }

    // Without online-ddl (today's behaviour) pt-osc's shadow table is replicated as an ordinary table: at a
    // stop between its copy and the swap it is downstream, altered, with rows; the end state equals the
    // upstream's and no trigger ever shows.
    void withoutOnlineDdlTheShadowIsAnOrdinaryTable() {
        QVERIFY2(QFileInfo::exists(QString::fromLatin1(kPtOsc)),
                 "pt-online-schema-change is not installed (percona-toolkit, scripts/setup-deps)");
        const std::string schema = "osc_plain";
        BinlogPoint start = freshStart(schema, schema);
        TaskRun task = writeTask(schema, schema, start, "");
        ShadowWatch watch(schema, "");
        std::string failure = sysbenchPrepare(schema, 3000);
        QVERIFY2(failure.empty(), failure.c_str());
        failure = runPtOsc(schema, "sbtest1", "ADD INDEX (pad)", 500);
        QVERIFY2(failure.empty(), failure.c_str());
        auto copies =
            eventsWith(binlogEventsSince(*up_, start), "Annotate_rows", "IGNORE INTO `osc_plain`.`_sbtest1_new`");
        QVERIFY2(!copies.empty(), "no copy of pt-osc in the upstream binlog");

        CliResult run = runCli(
            task.runArgs() + QStringList{QStringLiteral("--until"), QString::fromStdString(copies.back().at.text())},
            kRunTimeoutMs);
        QVERIFY2(run.exitCode == 0,
                 ("run --until exited " + std::to_string(run.exitCode) + ":\n" + tail(run.err)).c_str());
        std::string shadow = tableState(*down_, schema, "_sbtest1_new");
        QVERIFY2(!contains(shadow, "ERROR") && !contains(shadow, "rows 0,") && contains(shadow, "KEY `pad`"),
                 ("without online-ddl, the shadow at the end of its copy should be downstream, altered and filled: " +
                  shadow)
                     .c_str());
        QVERIFY2(!contains(tableDefinition(*down_, schema, "sbtest1"), "KEY `pad`"),
                 "the ALTER of the shadow reached the real table before the swap");

        std::string difference = catchUp(task);
        QVERIFY2(difference.empty(), difference.c_str());
        expectWatchSawNothing(watch, "pt-osc's triggers");
    }

    // A start between a shadow's ALTER and its swap, with no recorded state, would apply the swap without the
    // ALTER: refused at start naming the change, nothing written. A start before the shadow's CREATE is fine.
    void startBetweenShadowAlterAndSwapIsRefused() {
        const std::string schema = "osc_ref";
        const std::string orders = "`" + schema + "`.orders";
        const std::string shadow = "`" + schema + "`._orders_new";
        freshStart(schema, schema);
        dropTaskMeta(*down_, "osc_ref_ok");
        for (UpstreamConnection* server : {up_.get(), down_.get()}) {
            server->execute("SET SESSION sql_log_bin = 0");
            server->execute("CREATE TABLE " + orders + " (id INT PRIMARY KEY, k INT NOT NULL)");
            server->execute("INSERT INTO " + orders + " SELECT seq, seq FROM `" + schema + "`.seq_1_to_200");
            server->execute("SET SESSION sql_log_bin = 1");
        }
        std::string downstreamBefore = schemaState(*down_, schema);
        BinlogPoint beforeCreate = masterPoint(*up_);
        up_->execute("CREATE TABLE " + shadow + " LIKE " + orders);
        up_->execute("ALTER TABLE " + shadow + " ADD COLUMN flag TINYINT NOT NULL DEFAULT 1");
        BinlogPoint afterAlter = masterPoint(*up_);
        up_->execute("UPDATE " + orders + " SET k = k + 1000 WHERE id <= 20");
        BinlogPoint lastWrite = masterPoint(*up_);
        up_->execute("INSERT INTO " + shadow + " (id, k) SELECT id, k FROM " + orders);
        auto creates = eventsWith(binlogEventsSince(*up_, beforeCreate), "Query", "_orders_new");
        QVERIFY(!creates.empty());

        TaskRun refused = writeTask(schema, schema, afterAlter, "online-ddl: true\n");
        CliResult run = runCli(refused.runArgs(), kRunTimeoutMs);
        QVERIFY2(run.exitCode != 0 && run.exitCode != -2,
                 ("a start at " + afterAlter.text() + ", after the ALTER of _orders_new, exited " +
                  std::to_string(run.exitCode) + ":\n" + tail(run.err))
                     .c_str());
        QVERIFY2(
            QString::fromStdString(run.err).contains(QRegularExpression(QStringLiteral("`?osc_ref`?\\.`?orders\\b"))) &&
                contains(run.err, "_orders_new"),
            ("the refusal does not name osc_ref.orders and _orders_new:\n" + tail(run.err)).c_str());
        QVERIFY2(contains(run.err, std::to_string(beforeCreate.pos)) ||
                     contains(run.err, std::to_string(creates.front().at.pos)),
                 ("the refusal does not name the point before the shadow's CREATE (" + beforeCreate.text() + " or " +
                  creates.front().at.text() + "):\n" + tail(run.err))
                     .c_str());
        QCOMPARE(schemaState(*down_, schema), downstreamBefore);
        // The checkpoint stays where it was: no row, or the start point itself.
        std::string checkpoints =
            valueOf(*down_,
                    "SELECT GROUP_CONCAT(CONCAT_WS(' ', cp_schema, cp_table, CONCAT(binlog_name, ':', binlog_pos), "
                    "IF(is_global, 'global', 'table')) SEPARATOR '; ') FROM dm_meta.osc_ref_syncer_checkpoint");
        std::string unchanged = " " + afterAlter.text() + " global";
        QVERIFY2(checkpoints == "NULL" || contains(checkpoints, "doesn't exist") ||
                     (checkpoints.size() >= unchanged.size() &&
                      checkpoints.compare(checkpoints.size() - unchanged.size(), unchanged.size(), unchanged) == 0 &&
                      checkpoints.find(';') == std::string::npos),
                 ("the refused start moved the checkpoint from " + afterAlter.text() + ": " + checkpoints).c_str());
        qInfo("refused as expected (checkpoint rows: %s):\n%s", checkpoints.c_str(), tail(run.err).c_str());

        // From before the shadow's CREATE the change is followed: the ALTER is recorded, the real table waits.
        TaskRun followed = writeTask("osc_ref_ok", schema, beforeCreate, "online-ddl: true\n");
        run = runCli(
            followed.runArgs() + QStringList{QStringLiteral("--until"), QString::fromStdString(lastWrite.text())},
            kRunTimeoutMs);
        QVERIFY2(run.exitCode == 0,
                 ("a start before the shadow's CREATE exited " + std::to_string(run.exitCode) + ":\n" + tail(run.err))
                     .c_str());
        QVERIFY2(tablesIn(*down_, schema) == std::vector<std::string>{"orders"},
                 ("downstream tables: " + joined(tablesIn(*down_, schema), ", ")).c_str());
        auto rows = onlineDdlRows(*down_, followed.name, schema);
        QVERIFY2(rows && rows->size() == 1 && contains(rows->front(), "flag"),
                 ("dm_meta.osc_ref_ok_onlineddl should hold the ALTER of _orders_new: " +
                  (rows ? joined(*rows) : std::string("no table")))
                     .c_str());

        up_->execute("RENAME TABLE " + orders + " TO `" + schema + "`._orders_old, " + shadow + " TO " + orders);
        up_->execute("DROP TABLE `" + schema + "`._orders_old");
        std::string difference = catchUp(followed);
        QVERIFY2(difference.empty(), difference.c_str());
        expectNoChangeLeft(followed);
    }

    void cleanupTestCase() {
        for (const char* schema : {"osc_pt", "osc_ph", "osc_gho", "osc_custom", "osc_plain", "osc_ref"}) {
            for (UpstreamConnection* server : {up_.get(), down_.get()}) {
                server->execute("SET SESSION sql_log_bin = 0");
                server->execute(std::string("DROP DATABASE IF EXISTS ") + schema);
                server->execute("SET SESSION sql_log_bin = 1");
            }
        }
    }
};

QTEST_GUILESS_MAIN(OnlineDdlTest)
#include "test_online_ddl.moc"
