// A DM task with two sources run by `syncscope-cli run TASK --source A --source B --listen`: both sources are
// the test pair's upstream, each replicating its own database, so each subtask keeps its own checkpoint rows
// (id = its source id). Proves: both tables equal after a workload; one source paused through the API while
// the other keeps applying, then resumed; a restart continues each subtask from its own checkpoint, and a source
// paused before the restart stays paused (remembered in the downstream beside the checkpoint, so also by a restart
// with another --log-dir; its status saying so, with its persisted points and where a resume starts) until it is
// resumed, after which a restart from the first log folder runs it (the old copy there is not taken for a pause); a
// task whose sources would write one downstream table is refused naming the table and the sources; a missing source
// file, or a source-id with no file, starts nothing.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "engine/source/upstream_connection.h"
#include "tests/integration/multisource/multi_source_pair.h"
#include "tests/support/multi_source_files.h"
#include "tests/support/sql_values.h"
#include "tests/support/test_env.h"

using nlohmann::json;
using syncscope::source::UpstreamConnection;
using syncscope::test::checksumOf;
using syncscope::test::readTextFile;
using syncscope::test::valueOf;

namespace {

constexpr int kCliTimeoutMs = 60000;
constexpr int kHttpOk = 200;
constexpr int kHttpNotFound = 404;
constexpr int kRowsPerRound = 200;
const char* const kTaskName = "ms_task";
const char* const kSourceA = "ms-a";
const char* const kSourceB = "ms-b";
const char* const kDatabaseA = "ms_a";
const char* const kDatabaseB = "ms_b";

struct CliResult {
    int exitCode = -1;
    std::string err;
};

class MultiSourceRunTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    QTemporaryDir dir_;
    std::string configDir_;
    std::string logDir_;
    std::string otherLogDir_;  // a restart with another --log-dir
    int port_ = 0;
    QProcess run_;
    int nextId_ = 1;

    std::string sourceFile(const std::string& sourceId) { return configDir_ + "/" + sourceId + ".yaml"; }

    void writeSource(const std::string& sourceId) {
        syncscope::test::writeSourceFile(configDir_, sourceId, syncscope::test::upstreamReplication());
    }

    // One mysql-instances entry per (source id, database it replicates), each starting at the upstream's end.
    std::string writeTask(const std::string& name, const std::vector<std::pair<std::string, std::string>>& sources,
                          const std::string& routeRules = "", const std::string& topLevel = "") {
        auto master = up_->query("SHOW MASTER STATUS");
        std::vector<syncscope::test::InstanceOfTask> instances;
        for (const auto& [sourceId, database] : sources) {
            instances.push_back({sourceId, database, *master.front()[0], std::stoull(*master.front()[1])});
        }
        return syncscope::test::writeMultiSourceTaskFile(configDir_, name, syncscope::test::downstreamRoot(), instances,
                                                         routeRules, topLevel);
    }

    CliResult runToEnd(const QStringList& args) {
        QProcess process;
        process.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"), args);
        CliResult result;
        if (!process.waitForFinished(kCliTimeoutMs)) {
            process.kill();
            process.waitForFinished();
            result.exitCode = -2;
        } else {
            result.exitCode = process.exitCode();
        }
        result.err = process.readAllStandardError().toStdString();
        return result;
    }

    void startRun(const std::string& taskFile, std::string logDir = {}) {
        logDir = logDir.empty() ? logDir_ : logDir;
        run_.setStandardErrorFile(QString::fromStdString(logDir + "/run-stderr.txt"), QIODevice::Append);
        run_.start(
            QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"),
            {QStringLiteral("run"), QString::fromStdString(taskFile), QStringLiteral("--source"),
             QString::fromStdString(sourceFile(kSourceA)), QStringLiteral("--source"),
             QString::fromStdString(sourceFile(kSourceB)), QStringLiteral("--log-dir"), QString::fromStdString(logDir),
             QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port_)});
        QVERIFY(run_.waitForStarted());
    }

    void stopRun() {
        run_.terminate();  // SIGTERM: every subtask stops gracefully
        QVERIFY(run_.waitForFinished(kCliTimeoutMs));
        QCOMPARE(run_.exitCode(), 0);
    }

    json get(const std::string& path) {
        httplib::Client client("127.0.0.1", port_);
        client.set_read_timeout(std::chrono::seconds(10));
        auto res = client.Get(path.c_str());
        return res ? json::parse(res->body, nullptr, false) : json();
    }

    std::pair<int, json> post(const std::string& path) {
        httplib::Client client("127.0.0.1", port_);
        client.set_read_timeout(std::chrono::seconds(10));
        auto res = client.Post(path.c_str(), "", "application/json");
        return res ? std::pair{res->status, json::parse(res->body, nullptr, false)} : std::pair{0, json()};
    }

    std::string stageOf(const std::string& sourceId) {
        json s = get("/api/v1/status?source=" + sourceId);
        return s.is_object() ? s.value("stage", std::string()) : std::string();
    }

    void insertRound(const std::string& database) {
        std::string sql = "INSERT INTO " + database + ".t VALUES ";
        for (int i = 0; i < kRowsPerRound; ++i) {
            sql += (i ? "," : "") + ("(" + std::to_string(nextId_) + ", 'row " + std::to_string(nextId_) + "')");
            ++nextId_;
        }
        up_->execute(sql);
    }

    bool equalSoon(const std::string& database) {
        return syncscope::test::waitFor([&] {
            return valueOf(*up_, "SELECT COUNT(*) FROM " + database + ".t") ==
                       valueOf(*down_, "SELECT COUNT(*) FROM " + database + ".t") &&
                   checksumOf(*up_, database + ".t") == checksumOf(*down_, database + ".t");
        });
    }

    std::string checkpointTable(const std::string& task) { return "dm_meta.`" + task + "_syncer_checkpoint`"; }
    std::string pausedTable(const std::string& task) { return "dm_meta.`" + task + "_syncscope_paused_sources`"; }

    // (binlog_name, binlog_pos) of one source's global row, as "name:pos".
    std::string persistedGlobal(const std::string& sourceId) {
        return valueOf(*down_, "SELECT CONCAT(binlog_name, ':', binlog_pos) FROM " + checkpointTable(kTaskName) +
                                   " WHERE id = '" + sourceId + "' AND is_global = 1");
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        configDir_ = dir_.filePath(QStringLiteral("config")).toStdString();
        logDir_ = dir_.filePath(QStringLiteral("logs")).toStdString();
        std::filesystem::create_directories(configDir_);
        std::filesystem::create_directories(logDir_);
        otherLogDir_ = dir_.filePath(QStringLiteral("other-logs")).toStdString();
        std::filesystem::create_directories(otherLogDir_);
        syncscope::test::connectWithFreshDatabases(up_, down_, {kDatabaseA, kDatabaseB, "ms_shared", "ms_merged"});
        for (const char* task : {kTaskName, "ms_shard_same", "ms_shard_route", "ms_missing"}) {
            down_->execute("DROP TABLE IF EXISTS " + checkpointTable(task));
            down_->execute("DROP TABLE IF EXISTS " + pausedTable(task));
        }
        writeSource(kSourceA);
        writeSource(kSourceB);
        port_ = syncscope::test::freeLoopbackPort();
        QVERIFY(port_ > 0);
    }

    void cleanupTestCase() {
        if (run_.state() == QProcess::Running) {
            run_.terminate();
            run_.waitForFinished(kCliTimeoutMs);
        }
    }

    void bothSourcesApplyIntoTheirOwnTablesWithTheirOwnCheckpointRows() {
        std::string taskFile = writeTask(kTaskName, {{kSourceA, kDatabaseA}, {kSourceB, kDatabaseB}});
        startRun(taskFile);
        const std::string stderrFile = logDir_ + "/run-stderr.txt";
        QVERIFY2(
            syncscope::test::waitFor([&] { return stageOf(kSourceA) == "Running" && stageOf(kSourceB) == "Running"; }),
            readTextFile(stderrFile).c_str());
        for (int round = 0; round < 3; ++round) {
            insertRound(kDatabaseA);
            insertRound(kDatabaseB);
            up_->execute(std::string("UPDATE ") + kDatabaseA + ".t SET v = CONCAT(v, ' updated') WHERE id % 7 = 0");
            up_->execute(std::string("DELETE FROM ") + kDatabaseB + ".t WHERE id % 11 = 0");
        }
        QVERIFY2(equalSoon(kDatabaseA), readTextFile(stderrFile).c_str());
        QVERIFY2(equalSoon(kDatabaseB), readTextFile(stderrFile).c_str());

        // Each subtask's rows in the one checkpoint table: its own global row, its own database's table row.
        QVERIFY(syncscope::test::waitFor([&] {
            return valueOf(*down_, "SELECT COUNT(*) FROM " + checkpointTable(kTaskName) + " WHERE id = '" + kSourceA +
                                       "' AND is_global = 0 AND cp_schema = '" + kDatabaseA + "'") == "1" &&
                   valueOf(*down_, "SELECT COUNT(*) FROM " + checkpointTable(kTaskName) + " WHERE id = '" + kSourceB +
                                       "' AND is_global = 0 AND cp_schema = '" + kDatabaseB + "'") == "1";
        }));
        for (const char* source : {kSourceA, kSourceB}) {
            QCOMPARE(valueOf(*down_, "SELECT COUNT(*) FROM " + checkpointTable(kTaskName) + " WHERE id = '" + source +
                                         "' AND is_global = 1"),
                     std::string("1"));
        }
        QCOMPARE(valueOf(*down_, "SELECT COUNT(*) FROM " + checkpointTable(kTaskName) + " WHERE id = '" + kSourceA +
                                     "' AND cp_schema = '" + kDatabaseB + "'"),
                 std::string("0"));
        QCOMPARE(valueOf(*down_, "SELECT COUNT(DISTINCT id) FROM " + checkpointTable(kTaskName)), std::string("2"));

        // The whole task's status lists both subtasks, each with its own source id and rows.
        json whole = get("/api/v1/status");
        QVERIFY2(whole["subtasks"].is_array() && whole["subtasks"].size() == 2, whole.dump(2).c_str());
        QCOMPARE(whole["subtasks"][0]["source_id"].get<std::string>(), std::string(kSourceA));
        QCOMPARE(whole["subtasks"][1]["source_id"].get<std::string>(), std::string(kSourceB));
        QCOMPARE(whole["stage"].get<std::string>(), std::string("Running"));
        QCOMPARE(whole["total_rows"].get<uint64_t>(), whole["subtasks"][0]["total_rows"].get<uint64_t>() +
                                                          whole["subtasks"][1]["total_rows"].get<uint64_t>());
    }

    void oneSourcePausedTheOtherKeepsApplyingThenResumed() {
        auto [status, answer] = post(std::string("/api/v1/pause?source=") + kSourceA);
        QVERIFY2(status == kHttpOk, answer.dump(2).c_str());
        QCOMPARE(answer["source"].get<std::string>(), std::string(kSourceA));
        QVERIFY(syncscope::test::waitFor([&] { return stageOf(kSourceA) == "Paused"; }));
        QCOMPARE(stageOf(kSourceB), std::string("Running"));
        QCOMPARE(get("/api/v1/status")["stage"].get<std::string>(), std::string("Running"));  // partly paused

        const std::string downBefore = valueOf(*down_, std::string("SELECT COUNT(*) FROM ") + kDatabaseA + ".t");
        insertRound(kDatabaseA);
        insertRound(kDatabaseB);
        QVERIFY(equalSoon(kDatabaseB));
        // B has applied everything written after A's rows; A, paused, has applied none of them.
        QCOMPARE(valueOf(*down_, std::string("SELECT COUNT(*) FROM ") + kDatabaseA + ".t"), downBefore);

        // An unknown source is refused naming the task's sources, and changes nothing.
        auto [unknownStatus, unknown] = post("/api/v1/resume?source=nope");
        QCOMPARE(unknownStatus, kHttpNotFound);
        QVERIFY2(unknown["error"].get<std::string>().find("ms-a, ms-b") != std::string::npos, unknown.dump().c_str());
        QCOMPARE(stageOf(kSourceA), std::string("Paused"));

        auto [resumed, resumeAnswer] = post(std::string("/api/v1/resume?source=") + kSourceA);
        QVERIFY2(resumed == kHttpOk, resumeAnswer.dump(2).c_str());
        QVERIFY(equalSoon(kDatabaseA));
    }

    void wholeTaskPauseAndResumeReachEverySubtask() {
        auto [paused, pauseAnswer] = post("/api/v1/pause");
        QVERIFY2(paused == kHttpOk, pauseAnswer.dump(2).c_str());
        QVERIFY(
            syncscope::test::waitFor([&] { return stageOf(kSourceA) == "Paused" && stageOf(kSourceB) == "Paused"; }));
        QCOMPARE(get("/api/v1/status")["stage"].get<std::string>(), std::string("Paused"));
        auto [resumed, resumeAnswer] = post("/api/v1/resume");
        QVERIFY2(resumed == kHttpOk, resumeAnswer.dump(2).c_str());
        QVERIFY(
            syncscope::test::waitFor([&] { return stageOf(kSourceA) == "Running" && stageOf(kSourceB) == "Running"; }));
    }

    void aRestartContinuesEachSubtaskFromItsOwnCheckpointAndKeepsAPausedSourcePaused() {
        // A is paused and left behind while B applies; then the process stops gracefully.
        QCOMPARE(post(std::string("/api/v1/pause?source=") + kSourceA).first, kHttpOk);
        QVERIFY(syncscope::test::waitFor([&] { return stageOf(kSourceA) == "Paused"; }));
        const std::string aCountBefore = valueOf(*down_, std::string("SELECT COUNT(*) FROM ") + kDatabaseA + ".t");
        insertRound(kDatabaseA);
        insertRound(kDatabaseB);
        QVERIFY(equalSoon(kDatabaseB));
        stopRun();
        const std::string pointA = persistedGlobal(kSourceA);
        const std::string pointB = persistedGlobal(kSourceB);
        QVERIFY2(pointA != pointB, (pointA + " vs " + pointB).c_str());  // A's checkpoint stayed at its pause
        QCOMPARE(valueOf(*down_, std::string("SELECT COUNT(*) FROM ") + kDatabaseA + ".t"), aCountBefore);

        // The pause is kept in the downstream beside the checkpoint, and copied beside the audit log, when given.
        QCOMPARE(valueOf(*down_, "SELECT GROUP_CONCAT(source_id) FROM " + pausedTable(kTaskName)),
                 std::string(kSourceA));
        const std::string pausedFile = logDir_ + "/" + kTaskName + "-paused-sources.json";
        json remembered = json::parse(readTextFile(pausedFile), nullptr, false);
        QVERIFY2(remembered.is_object() && remembered["paused"].size() == 1 &&
                     remembered["paused"][0]["source_id"] == kSourceA &&
                     remembered["paused"][0]["in_downstream"] == true,
                 readTextFile(pausedFile).c_str());

        // `status` shows it while nothing runs, from the downstream (another log folder has no copy).
        QProcess status;
        status.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"),
                     {QStringLiteral("status"), QString::fromStdString(configDir_ + "/" + kTaskName + ".yaml"),
                      QStringLiteral("--source"), QString::fromStdString(sourceFile(kSourceA)),
                      QStringLiteral("--source"), QString::fromStdString(sourceFile(kSourceB)),
                      QStringLiteral("--log-dir"), QString::fromStdString(otherLogDir_), QStringLiteral("--json")});
        QVERIFY(status.waitForFinished(kCliTimeoutMs));
        json offline = json::parse(status.readAllStandardOutput().toStdString(), nullptr, false);
        QVERIFY2(offline.is_object() && offline["sources"][0]["paused_by_dba_since"].is_string() &&
                     offline["sources"][1]["paused_by_dba_since"].is_null(),
                 offline.dump(2).c_str());

        // Written while nothing runs; restarted with another --log-dir.
        insertRound(kDatabaseA);
        insertRound(kDatabaseB);
        startRun(configDir_ + "/" + kTaskName + ".yaml", otherLogDir_);
        // B resumes from its own point; A, paused before the restart, stays paused and says why and where it stands.
        QVERIFY(
            syncscope::test::waitFor([&] { return stageOf(kSourceA) == "Paused" && stageOf(kSourceB) == "Running"; }));
        json a;
        QVERIFY2(syncscope::test::waitFor([&] {
                     a = get(std::string("/api/v1/status?source=") + kSourceA);
                     return a.is_object() && !a["upstream_files"].empty();  // the upstream polled once
                 }),
                 a.dump(2).c_str());
        const std::string reason = a["stage_reason"].get<std::string>();
        QVERIFY2(a["source_id"].get<std::string>() == kSourceA, a.dump().c_str());
        QVERIFY2(reason.find("paused by the DBA since") != std::string::npos &&
                     reason.find("a restart keeps this source paused") != std::string::npos &&
                     reason.find("_syncscope_paused_sources") != std::string::npos,
                 a.dump(2).c_str());
        // Its persisted checkpoint, read at start while it stays paused: the ruler's points and the reason's position.
        QVERIFY2(reason.find("checkpoint at " + pointA) != std::string::npos, a.dump(2).c_str());
        const json& global = a["points"]["global_persisted"];
        QVERIFY2(global.is_object() && global["text"] == pointA && global["axis_bytes"].is_number(), a.dump(2).c_str());
        QVERIFY2(a["points"]["exit_safe"].is_object(), a.dump(2).c_str());
        bool tablePoint = false;
        for (const json& table : a["tables"]) {
            tablePoint = tablePoint || (table["schema"] == kDatabaseA && table["persisted"].is_object());
        }
        QVERIFY2(tablePoint, a.dump(2).c_str());
        QVERIFY2(
            get("/api/v1/status")["stage_reason"].get<std::string>().find("source ms-a: Paused") != std::string::npos,
            get("/api/v1/status").dump(2).c_str());
        QVERIFY(equalSoon(kDatabaseB));
        QCOMPARE(valueOf(*down_, std::string("SELECT COUNT(*) FROM ") + kDatabaseA + ".t"), aCountBefore);
        QCOMPARE(persistedGlobal(kSourceA), pointA);

        // Resumed: A applies from its own persisted point every row written while it was paused and while nothing
        // ran, and neither the downstream nor this log folder names it any more.
        auto [resumed, resumeAnswer] = post(std::string("/api/v1/resume?source=") + kSourceA);
        QVERIFY2(resumed == kHttpOk, resumeAnswer.dump(2).c_str());
        QVERIFY2(equalSoon(kDatabaseA), readTextFile(otherLogDir_ + "/run-stderr.txt").c_str());
        QCOMPARE(valueOf(*down_, "SELECT COUNT(*) FROM " + pausedTable(kTaskName)), std::string("0"));
        const std::string otherFile = otherLogDir_ + "/" + kTaskName + "-paused-sources.json";
        remembered = json::parse(readTextFile(otherFile), nullptr, false);
        QVERIFY2(remembered.is_object() && remembered["paused"].empty(), readTextFile(otherFile).c_str());
        const std::string log = readTextFile(otherLogDir_ + "/" + kTaskName + ".log");
        QVERIFY2(log.find("resuming from the persisted global point " + pointA) != std::string::npos &&
                     log.find("resuming from the persisted global point " + pointB) != std::string::npos,
                 log.c_str());
        QVERIFY2(log.find("source ms-a stays paused: paused by the DBA since") != std::string::npos, log.c_str());
        stopRun();

        // Back in the first log folder, whose copy still names A: that pause reached the downstream and was resumed
        // from elsewhere, so A runs.
        startRun(configDir_ + "/" + kTaskName + ".yaml");
        QVERIFY(
            syncscope::test::waitFor([&] { return stageOf(kSourceA) == "Running" && stageOf(kSourceB) == "Running"; }));
        insertRound(kDatabaseA);
        QVERIFY(equalSoon(kDatabaseA));
        stopRun();
    }

    void sourcesWritingOneDownstreamTableAreRefused_data() {
        QTest::addColumn<QString>("task");
        QTest::addColumn<QString>("table");
        // The same database on both sources with no route: both would write ms_shared.t.
        QTest::addRow("same table on two sources")
            << QString::fromStdString(writeTask("ms_shard_same", {{kSourceA, "ms_shared"}, {kSourceB, "ms_shared"}}))
            << "ms_shared.t";
        // A route rule mapping both sources' tables onto one target.
        QTest::addRow("route merging two sources")
            << QString::fromStdString(writeTask("ms_shard_route", {{kSourceA, kDatabaseA}, {kSourceB, kDatabaseB}},
                                                "    route-rules: [\"merge\"]\n",
                                                "routes:\n  merge: {schema-pattern: \"ms_*\", table-pattern: "
                                                "\"t\", target-schema: \"ms_merged\", target-table: \"t\"}\n"))
            << "ms_merged.t";
    }

    void sourcesWritingOneDownstreamTableAreRefused() {
        QFETCH(QString, task);
        QFETCH(QString, table);
        CliResult result = runToEnd({QStringLiteral("run"), task, QStringLiteral("--source"),
                                     QString::fromStdString(sourceFile(kSourceA)), QStringLiteral("--source"),
                                     QString::fromStdString(sourceFile(kSourceB)), QStringLiteral("--log-dir"),
                                     QString::fromStdString(logDir_)});
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.find("shard merge") != std::string::npos, result.err.c_str());
        QVERIFY2(result.err.find(table.toStdString()) != std::string::npos, result.err.c_str());
        QVERIFY2(result.err.find(std::string("source '") + kSourceA + "'") != std::string::npos &&
                     result.err.find(std::string("source '") + kSourceB + "'") != std::string::npos,
                 result.err.c_str());
        // Nothing started: no checkpoint table, no row downstream.
        QCOMPARE(valueOf(*down_,
                         "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'dm_meta' AND "
                         "TABLE_NAME LIKE 'ms\\_shard\\_%'"),
                 std::string("0"));
        QCOMPARE(valueOf(*down_, "SELECT COUNT(*) FROM ms_merged.t"), std::string("0"));
    }

    void aMissingSourceFileStartsNothing_data() {
        QTest::addColumn<QStringList>("sources");
        QTest::addColumn<QString>("named");
        const QString a = QString::fromStdString(sourceFile(kSourceA));
        const QString b = QString::fromStdString(sourceFile(kSourceB));
        const QString missing = QString::fromStdString(configDir_ + "/no-such-source.yaml");
        QTest::addRow("a --source file that does not exist") << QStringList{a, missing} << missing;
        // The task has three sources; only two files are given.
        QTest::addRow("a source-id without a source file") << QStringList{a, b} << "'ms-c'";
    }

    void aMissingSourceFileStartsNothing() {
        QFETCH(QStringList, sources);
        QFETCH(QString, named);
        std::string taskFile =
            writeTask("ms_missing", {{kSourceA, kDatabaseA}, {kSourceB, kDatabaseB}, {"ms-c", "ms_shared"}});
        QStringList args{QStringLiteral("run"), QString::fromStdString(taskFile)};
        for (const QString& source : sources) {
            args << QStringLiteral("--source") << source;
        }
        args << QStringLiteral("--log-dir") << QString::fromStdString(logDir_);
        CliResult result = runToEnd(args);
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.find(named.toStdString()) != std::string::npos, result.err.c_str());
        QVERIFY2(result.err.find("nothing was started") != std::string::npos, result.err.c_str());
        QCOMPARE(valueOf(*down_,
                         "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'dm_meta' AND "
                         "TABLE_NAME = 'ms_missing_syncer_checkpoint'"),
                 std::string("0"));
    }
};

}  // namespace

QTEST_GUILESS_MAIN(MultiSourceRunTest)
#include "test_multi_source_run.moc"
