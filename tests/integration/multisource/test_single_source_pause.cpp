// A task with one source run by `syncscope-cli run TASK --source A --listen` keeps the DBA's pause across restarts, as
// a task with several sources does: a pause through the API is written to the downstream beside the checkpoint
// (`<meta>`.`<task>_syncscope_paused_sources`) and to a copy beside the audit log; a restart, even with another
// --log-dir, starts the task paused (its status saying since when, where the pause is kept and where a resume
// starts) and applies nothing until it is resumed (`syncscope-cli status` says so while nothing runs); a resume
// forgets the pause, so the next restart from the first log folder runs (its stale copy is not taken for a pause); a
// resume-from forgets it as a resume does. A downstream that does not answer at start (restarted, down for a few
// seconds) is waited for: the task starts once the pauses kept there are read, so a pause kept there wins over a
// stale copy beside the audit log, and a copy's pause that the downstream no longer has (resumed elsewhere) is
// dropped; the status and the log say which was used.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <thread>

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
constexpr int kRowsPerRound = 200;
constexpr auto kHeldBack = std::chrono::milliseconds(1500);  // long enough for a running task to apply a round
constexpr int kSecondsDown = 12;                             // the downstream's restart: long enough to be seen
constexpr int kRestartTimeoutMs = 120000;
const char* const kTaskName = "ss_task";
const char* const kSource = "ss-a";
const char* const kDatabase = "ss_a";

class SingleSourcePauseTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    QTemporaryDir dir_;
    std::string configDir_;
    std::string logDir_;
    std::string otherLogDir_;
    std::string taskFile_;
    std::string sourceFile_;
    int port_ = 0;
    QProcess run_;
    QProcess restart_;  // scripts/dbpair restart down, in the background
    int nextId_ = 1;

    void startRun(const std::string& logDir) {
        run_.setStandardErrorFile(QString::fromStdString(logDir + "/run-stderr.txt"), QIODevice::Append);
        run_.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"),
                   {QStringLiteral("run"), QString::fromStdString(taskFile_), QStringLiteral("--source"),
                    QString::fromStdString(sourceFile_), QStringLiteral("--log-dir"), QString::fromStdString(logDir),
                    QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port_)});
        QVERIFY(run_.waitForStarted());
    }

    void stopRun() {
        run_.terminate();  // SIGTERM: a graceful stop
        QVERIFY(run_.waitForFinished(kCliTimeoutMs));
        QCOMPARE(run_.exitCode(), 0);
    }

    // `syncscope-cli status --json` while nothing runs.
    json offlineStatus(const std::string& logDir) {
        QProcess process;
        process.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"),
                      {QStringLiteral("status"), QString::fromStdString(taskFile_), QStringLiteral("--source"),
                       QString::fromStdString(sourceFile_), QStringLiteral("--json"), QStringLiteral("--log-dir"),
                       QString::fromStdString(logDir)});
        if (!process.waitForFinished(kCliTimeoutMs)) {
            process.kill();
            process.waitForFinished();
            return json();
        }
        return json::parse(process.readAllStandardOutput().toStdString(), nullptr, false);
    }

    json status() {
        httplib::Client client("127.0.0.1", port_);
        client.set_read_timeout(std::chrono::seconds(10));
        auto res = client.Get("/api/v1/status");
        return res ? json::parse(res->body, nullptr, false) : json();
    }

    std::string stage() { return fieldOf(status(), "stage"); }

    static std::string fieldOf(const json& status, const char* name) {
        return status.is_object() ? status.value(name, std::string()) : std::string();
    }

    std::pair<int, json> post(const std::string& path, const std::string& body = "") {
        httplib::Client client("127.0.0.1", port_);
        client.set_read_timeout(std::chrono::seconds(30));
        auto res = client.Post(path.c_str(), body, "application/json");
        return res ? std::pair{res->status, json::parse(res->body, nullptr, false)} : std::pair{0, json()};
    }

    void insertRound() {
        std::string sql = std::string("INSERT INTO ") + kDatabase + ".t VALUES ";
        for (int i = 0; i < kRowsPerRound; ++i) {
            sql += (i ? "," : "") + ("(" + std::to_string(nextId_) + ", 'row " + std::to_string(nextId_) + "')");
            ++nextId_;
        }
        up_->execute(sql);
    }

    std::string countOf(UpstreamConnection& server) {
        return valueOf(server, std::string("SELECT COUNT(*) FROM ") + kDatabase + ".t");
    }

    bool equalSoon() {
        return syncscope::test::waitFor([&] {
            return countOf(*up_) == countOf(*down_) &&
                   checksumOf(*up_, std::string(kDatabase) + ".t") == checksumOf(*down_, std::string(kDatabase) + ".t");
        });
    }

    // `scripts/dbpair restart down` in the background; returns once the downstream refuses connections.
    void takeTheDownstreamDown() {
        QProcess& restart = restart_;
        restart.setProcessChannelMode(QProcess::MergedChannels);
        restart.start(QStringLiteral(SYNCSCOPE_SOURCE_DIR "/scripts/dbpair"),
                      {QStringLiteral("restart"), QStringLiteral("down"), QString::number(kSecondsDown)});
        QVERIFY(restart.waitForStarted());
        down_.reset();
        QVERIFY2(syncscope::test::waitFor([] {
                     try {
                         UpstreamConnection(syncscope::test::engineSettings(syncscope::test::downstreamRoot()));
                         return false;
                     } catch (const std::exception&) {
                         return true;
                     }
                 }),
                 "the downstream still answers");
    }

    void waitUntilTheDownstreamIsBack() {
        QProcess& restart = restart_;
        QVERIFY(restart.waitForFinished(kRestartTimeoutMs));
        QVERIFY2(restart.exitCode() == 0, restart.readAll().constData());
        down_ =
            std::make_unique<UpstreamConnection>(syncscope::test::engineSettings(syncscope::test::downstreamRoot()));
    }

    std::string pausedTable() { return std::string("dm_meta.`") + kTaskName + "_syncscope_paused_sources`"; }
    std::string pausedFile(const std::string& logDir) { return logDir + "/" + kTaskName + "-paused-sources.json"; }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        configDir_ = dir_.filePath(QStringLiteral("config")).toStdString();
        logDir_ = dir_.filePath(QStringLiteral("logs")).toStdString();
        otherLogDir_ = dir_.filePath(QStringLiteral("other-logs")).toStdString();
        for (const std::string& folder : {configDir_, logDir_, otherLogDir_}) {
            std::filesystem::create_directories(folder);
        }
        syncscope::test::connectWithFreshDatabases(up_, down_, {kDatabase});
        down_->execute(std::string("DROP TABLE IF EXISTS dm_meta.`") + kTaskName + "_syncer_checkpoint`");
        down_->execute("DROP TABLE IF EXISTS " + pausedTable());
        sourceFile_ = syncscope::test::writeSourceFile(configDir_, kSource, syncscope::test::upstreamReplication());
        auto master = up_->query("SHOW MASTER STATUS");
        taskFile_ = syncscope::test::writeMultiSourceTaskFile(
            configDir_, kTaskName, syncscope::test::downstreamRoot(),
            {{kSource, kDatabase, *master.front()[0], std::stoull(*master.front()[1])}});
        port_ = syncscope::test::freeLoopbackPort();
        QVERIFY(port_ > 0);
    }

    void cleanupTestCase() {
        if (restart_.state() == QProcess::Running) {
            restart_.waitForFinished(kRestartTimeoutMs);  // the downstream is started again
        }
        if (run_.state() == QProcess::Running) {
            run_.terminate();
            run_.waitForFinished(kCliTimeoutMs);
        }
    }

    void aPauseThroughTheApiIsWrittenToTheDownstreamAndBesideTheAuditLog() {
        startRun(logDir_);
        const std::string stderrFile = logDir_ + "/run-stderr.txt";
        QVERIFY2(syncscope::test::waitFor([&] { return stage() == "Running"; }), readTextFile(stderrFile).c_str());
        insertRound();
        QVERIFY2(equalSoon(), readTextFile(stderrFile).c_str());

        auto [code, answer] = post("/api/v1/pause");
        QVERIFY2(code == kHttpOk, answer.dump(2).c_str());
        QVERIFY(syncscope::test::waitFor([&] { return stage() == "Paused"; }));
        QCOMPARE(valueOf(*down_, "SELECT source_id FROM " + pausedTable()), std::string(kSource));
        const std::string copy = readTextFile(pausedFile(logDir_));
        QVERIFY2(copy.find(kSource) != std::string::npos && copy.find("\"in_downstream\": true") != std::string::npos,
                 copy.c_str());
        json paused = status();
        QVERIFY2(paused.value("stage_reason", std::string()).find("paused by the DBA since") != std::string::npos,
                 paused.dump(2).c_str());
        stopRun();
    }

    void aRestartWithAnotherLogDirStaysPausedUntilResumed() {
        json offline = offlineStatus(otherLogDir_);  // read from the downstream: that log folder has no copy
        QVERIFY2(offline.is_object() && offline["paused_by_dba_since"].is_string(), offline.dump(2).c_str());
        insertRound();  // written while nothing runs
        const std::string applied = countOf(*down_);
        startRun(otherLogDir_);
        const std::string stderrFile = otherLogDir_ + "/run-stderr.txt";
        QVERIFY2(syncscope::test::waitFor([&] { return stage() == "Paused"; }), readTextFile(stderrFile).c_str());
        json paused = status();
        const std::string reason = paused.value("stage_reason", std::string());
        qInfo("%s", reason.c_str());
        QVERIFY2(reason.find("paused by the DBA since") != std::string::npos, reason.c_str());
        QVERIFY2(reason.find("_syncscope_paused_sources") != std::string::npos, reason.c_str());
        QVERIFY2(reason.find("checkpoint at") != std::string::npos, reason.c_str());
        QVERIFY2(readTextFile(stderrFile).find("stays paused") != std::string::npos, readTextFile(stderrFile).c_str());
        insertRound();
        std::this_thread::sleep_for(kHeldBack);  // a running task would have applied both rounds by now
        QCOMPARE(stage(), std::string("Paused"));
        QCOMPARE(countOf(*down_), applied);

        auto [code, answer] = post("/api/v1/resume");
        QVERIFY2(code == kHttpOk, answer.dump(2).c_str());
        QVERIFY2(equalSoon(), readTextFile(stderrFile).c_str());
        QCOMPARE(valueOf(*down_, "SELECT COUNT(*) FROM " + pausedTable()), std::string("0"));
        QVERIFY(readTextFile(pausedFile(otherLogDir_)).find(kSource) == std::string::npos);
        stopRun();
    }

    void aRestartFromTheFirstLogDirRunsOnceResumedElsewhere() {
        // Its copy still names the source (in the downstream when written), but the downstream no longer does.
        QVERIFY(readTextFile(pausedFile(logDir_)).find(kSource) != std::string::npos);
        startRun(logDir_);
        QVERIFY2(syncscope::test::waitFor([&] { return stage() == "Running"; }),
                 readTextFile(logDir_ + "/run-stderr.txt").c_str());
        insertRound();
        QVERIFY(equalSoon());
    }

    // A resume-from runs the task too: the pause is forgotten as by a resume (it was kept before, and the next
    // restart paused a task that had been running since).
    void aResumeFromForgetsThePause() {
        auto [paused, pauseAnswer] = post("/api/v1/pause");
        QVERIFY2(paused == kHttpOk, pauseAnswer.dump(2).c_str());
        stopRun();
        startRun(logDir_);
        QVERIFY(syncscope::test::waitFor([&] { return stage() == "Paused"; }));
        insertRound();
        const json global = status()["points"]["global_persisted"];
        QVERIFY2(global.is_object(), status().dump(2).c_str());
        const json target = {
            {"binlog_name", global["binlog_name"]}, {"binlog_pos", global["binlog_pos"]}, {"save_sql", false}};
        auto [code, answer] = post("/api/v1/resume-from", target.dump());
        QVERIFY2(code == kHttpOk, answer.dump(2).c_str());
        QVERIFY2(equalSoon(), readTextFile(logDir_ + "/run-stderr.txt").c_str());
        QCOMPARE(valueOf(*down_, "SELECT COUNT(*) FROM " + pausedTable()), std::string("0"));
        stopRun();
        startRun(logDir_);  // runs: nothing remembers a pause
        QVERIFY(syncscope::test::waitFor([&] { return stage() == "Running"; }));
        insertRound();
        QVERIFY(equalSoon());
        stopRun();
    }

    // Paused from the other log folder: the downstream has the pause, the first folder's copy names none (it was
    // written at the last resume). Started from the first folder while the downstream is down, the task waits, and
    // once the downstream is back it stays paused: the table wins over the stale copy.
    void aPauseKeptInTheDownstreamWinsOverAStaleCopyWhenTheDownstreamComesBack() {
        startRun(otherLogDir_);
        QVERIFY(syncscope::test::waitFor([&] { return stage() == "Running"; }));
        auto [paused, pauseAnswer] = post("/api/v1/pause");
        QVERIFY2(paused == kHttpOk, pauseAnswer.dump(2).c_str());
        QVERIFY(syncscope::test::waitFor([&] { return stage() == "Paused"; }));
        stopRun();
        QCOMPARE(valueOf(*down_, "SELECT source_id FROM " + pausedTable()), std::string(kSource));
        QVERIFY(readTextFile(pausedFile(logDir_)).find(kSource) == std::string::npos);
        const std::string applied = countOf(*down_);

        takeTheDownstreamDown();
        startRun(logDir_);
        const std::string stderrFile = logDir_ + "/run-stderr.txt";
        json waiting;
        QVERIFY2(syncscope::test::waitFor([&] {
                     waiting = status();
                     return fieldOf(waiting, "stage_reason").find("retrying") != std::string::npos;
                 }),
                 (waiting.dump(2) + readTextFile(stderrFile)).c_str());
        const std::string waitReason = fieldOf(waiting, "stage_reason");
        qInfo("while the downstream is down: %s %s", fieldOf(waiting, "stage").c_str(), waitReason.c_str());
        QCOMPARE(fieldOf(waiting, "stage"), std::string("Error"));
        QVERIFY2(waitReason.find("starts once the pauses kept in the downstream are read") != std::string::npos,
                 waitReason.c_str());
        QVERIFY2(waitReason.find("_syncscope_paused_sources") != std::string::npos, waitReason.c_str());
        insertRound();  // written while the task waits
        waitUntilTheDownstreamIsBack();

        json back;
        QVERIFY2(syncscope::test::waitFor([&] {
                     back = status();
                     return fieldOf(back, "stage") == "Paused" &&
                            fieldOf(back, "stage_reason").find("the table wins") != std::string::npos;
                 }),
                 (back.dump(2) + readTextFile(stderrFile)).c_str());
        const std::string reason = fieldOf(back, "stage_reason");
        qInfo("once it is back: %s", reason.c_str());
        QVERIFY2(reason.find("did not name it") != std::string::npos, reason.c_str());
        QVERIFY2(
            readTextFile(stderrFile).find("the downstream answered: source ss-a: paused since") != std::string::npos,
            readTextFile(stderrFile).c_str());
        std::this_thread::sleep_for(kHeldBack);
        QCOMPARE(stage(), std::string("Paused"));
        QCOMPARE(countOf(*down_), applied);
        QVERIFY(readTextFile(pausedFile(logDir_)).find(kSource) != std::string::npos);  // the copy is mended

        auto [code, answer] = post("/api/v1/resume");
        QVERIFY2(code == kHttpOk, answer.dump(2).c_str());
        QVERIFY2(equalSoon(), readTextFile(stderrFile).c_str());
        stopRun();
    }

    // The other folder's copy still says paused (in the downstream when written), but the downstream no longer
    // does: started while the downstream is down, the task waits as paused, and runs once the downstream is back.
    void aCopysPauseResumedElsewhereIsDroppedWhenTheDownstreamComesBack() {
        QVERIFY(readTextFile(pausedFile(otherLogDir_)).find(kSource) != std::string::npos);
        QCOMPARE(valueOf(*down_, "SELECT COUNT(*) FROM " + pausedTable()), std::string("0"));
        takeTheDownstreamDown();
        startRun(otherLogDir_);
        const std::string stderrFile = otherLogDir_ + "/run-stderr.txt";
        json waiting;
        QVERIFY2(syncscope::test::waitFor([&] {
                     waiting = status();
                     return fieldOf(waiting, "stage_reason").find("cannot be read yet") != std::string::npos;
                 }),
                 (waiting.dump(2) + readTextFile(stderrFile)).c_str());
        qInfo("while the downstream is down: %s %s", fieldOf(waiting, "stage").c_str(),
              fieldOf(waiting, "stage_reason").c_str());
        QCOMPARE(fieldOf(waiting, "stage"), std::string("Paused"));
        insertRound();
        waitUntilTheDownstreamIsBack();
        QVERIFY2(equalSoon(), readTextFile(stderrFile).c_str());
        QCOMPARE(stage(), std::string("Running"));
        const std::string log = readTextFile(stderrFile);
        QVERIFY2(log.find("resumed from elsewhere: the table wins") != std::string::npos, log.c_str());
        QVERIFY(readTextFile(pausedFile(otherLogDir_)).find(kSource) == std::string::npos);
        stopRun();
    }
};

}  // namespace

QTEST_GUILESS_MAIN(SingleSourcePauseTest)
#include "test_single_source_pause.moc"
