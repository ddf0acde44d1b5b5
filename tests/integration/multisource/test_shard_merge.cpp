// DM's shard merge with shard-mode: pessimistic, on two upstream servers: sm_1.t and sm_2.t on the test pair's
// upstream (one source), sm_3.t on the second pair's upstream (another source), all routed into sm.t downstream.
// Interleaved inserts, updates and deletes on every shard while an ADD COLUMN reaches the shards seconds apart; the
// engine is SIGKILLed while the lock waits and started again. Proves: the lock is visible while it waits (the API's
// shard-locks and status, /metrics), names the shards that read the DDL and those waited for; the other shards' rows
// keep applying while it waits and their table points run ahead of the held global point; the DDL runs downstream
// once; the downstream ends with exactly the union of the shards (row by row); the ledger of ran locks is empty at
// the end. A shard that never reads the next DDL: the DBA's unlock (previewed, refused for a table without a lock,
// audited) runs it without that shard, whose old-shape rows still arrive and which passes the DDL over when it reads
// it at last. A lock whose DDL fails downstream stops the source that ran it and goes on after the DBA's fix and a
// resume. Then two shards read different DDLs: the source stops naming both. Last, shard-mode: optimistic on the
// same shards: what fits every shard runs at once without a lock, the rest waits in one, conflicts stop.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>

#include "engine/binlog/binlog_position.h"
#include "engine/source/upstream_connection.h"
#include "tests/support/multi_source_files.h"
#include "tests/support/second_pair.h"
#include "tests/support/sql_values.h"
#include "tests/support/test_env.h"

using nlohmann::json;
using syncscope::source::UpstreamConnection;
using syncscope::test::readTextFile;
using syncscope::test::valueOf;

namespace {

constexpr int kCliTimeoutMs = 60000;
constexpr int kRowsPerRound = 40;
const char* const kTaskName = "sm_task";
const char* const kSourceFirst = "sm-first";
const char* const kSourceSecond = "sm-second";

struct Shard {
    const char* database;
    int firstId;  // disjoint id ranges: the merged table keeps every shard's rows apart
};
const Shard kShards[] = {{"sm_1", 1000000}, {"sm_2", 2000000}, {"sm_3", 3000000}};

class ShardMergeTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> second_;
    std::unique_ptr<UpstreamConnection> down_;
    QTemporaryDir dir_;
    std::string configDir_;
    std::string logDir_;
    std::string taskFile_;
    std::string firstSource_;
    std::string secondSource_;
    int port_ = 0;
    QProcess run_;
    std::string taskName_ = kTaskName;
    int nextId_[3] = {0, 0, 0};
    bool hasC_[3] = {false, false, false};
    syncscope::test::SecondPair secondPair_;

    UpstreamConnection& serverOf(int shard) { return shard == 2 ? *second_ : *up_; }

    // A round on one shard: inserts, an update and a delete, in the shape the shard's table has now.
    void writeRound(int shard) {
        UpstreamConnection& server = serverOf(shard);
        const std::string table = std::string(kShards[shard].database) + ".t";
        std::string sql = "INSERT INTO " + table + (hasC_[shard] ? " (id, v, c)" : " (id, v)") + " VALUES ";
        for (int i = 0; i < kRowsPerRound; ++i) {
            const int id = kShards[shard].firstId + nextId_[shard]++;
            sql += (i ? "," : "") + ("(" + std::to_string(id) + ", 'row " + std::to_string(id) + "'" +
                                     (hasC_[shard] ? ", " + std::to_string(id % 100) : std::string()) + ")");
        }
        server.execute(sql);
        server.execute("UPDATE " + table +
                       " SET v = CONCAT(v, ' u') WHERE id % 9 = " + std::to_string(nextId_[shard] % 9));
        server.execute("DELETE FROM " + table + " WHERE id % 13 = " + std::to_string(nextId_[shard] % 13));
    }

    // Every shard's rows, as the merged table shows them (c as the downstream's default where a shard has none).
    std::string unionOfShards(bool withC) {
        std::string rows;
        for (int shard = 0; shard < 3; ++shard) {
            const std::string c = !withC ? "" : hasC_[shard] ? ", c" : ", 7";
            for (const auto& row : serverOf(shard).query(std::string("SELECT CONCAT_WS('|', id, v") + c + ") FROM " +
                                                         kShards[shard].database + ".t ORDER BY id")) {
                rows += *row[0] + "\n";
            }
        }
        return rows;
    }

    // "" while the merged table has no column c yet.
    std::string downstreamRows(bool withC) {
        std::string rows;
        try {
            for (const auto& row : down_->query(std::string("SELECT CONCAT_WS('|', id, v") + (withC ? ", c" : "") +
                                                ") FROM sm.t ORDER BY id")) {
                rows += *row[0] + "\n";
            }
        } catch (const syncscope::source::UpstreamError&) {
            return "";
        }
        return rows;
    }

    json get(const std::string& path) {
        httplib::Client client("127.0.0.1", port_);
        client.set_read_timeout(std::chrono::seconds(10));
        auto res = client.Get(path.c_str());
        return res ? json::parse(res->body, nullptr, false) : json();
    }

    json post(const std::string& path) {
        httplib::Client client("127.0.0.1", port_);
        client.set_read_timeout(std::chrono::seconds(10));
        auto res = client.Post(path.c_str(), "", "application/json");
        return res ? json::parse(res->body, nullptr, false) : json();
    }

    std::string metrics() {
        httplib::Client client("127.0.0.1", port_);
        auto res = client.Get("/metrics");
        return res ? res->body : std::string();
    }

    std::string stageOf(const std::string& sourceId) {
        json s = get("/api/v1/status?source=" + sourceId);
        return s.is_object() ? s.value("stage", std::string()) : std::string();
    }

    // The engine's own log, its last lines (stderr has only the start).
    std::string stderrText() {
        const std::string log = readTextFile(logDir_ + "/" + taskName_ + ".log");
        return log.substr(log.size() > 6000 ? log.size() - 6000 : 0);
    }

    void startRun() {
        run_.setStandardErrorFile(QString::fromStdString(logDir_ + "/run-stderr.txt"), QIODevice::Append);
        run_.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"),
                   {QStringLiteral("run"), QString::fromStdString(taskFile_), QStringLiteral("--source"),
                    QString::fromStdString(firstSource_), QStringLiteral("--source"),
                    QString::fromStdString(secondSource_), QStringLiteral("--log-dir"), QString::fromStdString(logDir_),
                    QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port_)});
        QVERIFY(run_.waitForStarted());
        QVERIFY2(syncscope::test::waitFor(
                     [&] { return stageOf(kSourceFirst) == "Running" && stageOf(kSourceSecond) == "Running"; }),
                 stderrText().c_str());
    }

    // `syncscope-cli status` of the task's two sources, without asking the engine ("" when it did not finish).
    std::string statusOutput(bool asJson) {
        QStringList args{QStringLiteral("status"),   QString::fromStdString(taskFile_),
                         QStringLiteral("--source"), QString::fromStdString(firstSource_),
                         QStringLiteral("--source"), QString::fromStdString(secondSource_)};
        if (asJson) {
            args << QStringLiteral("--json");
        }
        QProcess status;
        status.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"), args);
        return status.waitForFinished(kCliTimeoutMs) ? status.readAllStandardOutput().toStdString() : std::string();
    }

    // The one waiting lock on sm.t, as GET /api/v1/shard-locks gives it (null when none).
    json waitingLock() {
        json locks = get("/api/v1/shard-locks");
        if (!locks.is_object()) {
            return json();
        }
        for (const json& lock : locks["shard_locks"]) {
            if (lock["target_table"] == "t" && lock["target_schema"] == "sm" && lock["state"] == "waiting") {
                return lock;
            }
        }
        return json();
    }

    static std::set<std::string> tablesIn(const json& shards) {
        std::set<std::string> names;
        for (const json& shard : shards) {
            names.insert(shard["source"].get<std::string>() + ":" + shard["schema"].get<std::string>() + "." +
                         shard["table"].get<std::string>());
        }
        return names;
    }

    // Empty shard tables and merged table, and a task `name` merging them with `shardMode` from the upstreams' ends.
    void prepareTask(const std::string& name, const std::string& shardMode) {
        taskName_ = name;
        for (int shard = 0; shard < 3; ++shard) {
            UpstreamConnection& server = serverOf(shard);
            const std::string database = kShards[shard].database;
            server.execute("SET SESSION sql_log_bin = 0");
            server.execute("DROP DATABASE IF EXISTS " + database);
            server.execute("CREATE DATABASE " + database);
            server.execute("CREATE TABLE " + database + ".t (id INT PRIMARY KEY, v VARCHAR(60))");
            server.execute("SET SESSION sql_log_bin = 1");
            nextId_[shard] = 0;
            hasC_[shard] = false;
        }
        down_->execute("DROP DATABASE IF EXISTS sm");
        down_->execute("CREATE DATABASE sm");
        down_->execute("CREATE TABLE sm.t (id INT PRIMARY KEY, v VARCHAR(60))");
        down_->execute("CREATE DATABASE IF NOT EXISTS dm_meta");
        for (const char* suffix : {"_syncer_checkpoint", "_syncscope_paused_sources", "_syncscope_shard_locks"}) {
            down_->execute("DROP TABLE IF EXISTS dm_meta.`" + name + suffix + "`");
        }
        auto firstEnd = up_->query("SHOW MASTER STATUS");
        auto secondEnd = second_->query("SHOW MASTER STATUS");
        taskFile_ = syncscope::test::writeMultiSourceTaskFile(
            configDir_, name, syncscope::test::downstreamRoot(),
            {{kSourceFirst, "sm_*", *firstEnd.front()[0], std::stoull(*firstEnd.front()[1])},
             {kSourceSecond, "sm_*", *secondEnd.front()[0], std::stoull(*secondEnd.front()[1])}},
            "    route-rules: [\"merge-t\"]\n",
            "shard-mode: \"" + shardMode +
                "\"\n"
                "routes:\n"
                "  merge-t: {schema-pattern: \"sm_*\", table-pattern: \"t\", target-schema: \"sm\", target-table: "
                "\"t\"}\n");
    }

    size_t logCount(const std::string& text) {
        const std::string log = readTextFile(logDir_ + "/" + taskName_ + ".log");
        size_t count = 0;
        for (size_t at = log.find(text); at != std::string::npos; at = log.find(text, at + 1)) {
            ++count;
        }
        return count;
    }

    std::string columnType(const std::string& column) {
        return valueOf(*down_,
                       "SELECT COALESCE(MAX(COLUMN_TYPE), '') FROM information_schema.COLUMNS WHERE "
                       "TABLE_SCHEMA = 'sm' AND TABLE_NAME = 't' AND COLUMN_NAME = '" +
                           column + "'");
    }

    // The shard tables GET /api/v1/shard-locks says still lack `column` of sm.t (optimistic mode).
    std::set<std::string> awaitedColumn(const std::string& column) {
        const json locks = get("/api/v1/shard-locks");
        for (const json& entry : locks["shard_columns"]) {
            if (entry["target_schema"] == "sm" && entry["target_table"] == "t" && entry["column"] == column) {
                return tablesIn(entry["awaited"]);
            }
        }
        return {};
    }

    std::string globalPersisted(const std::string& sourceId) {
        return valueOf(*down_, std::string("SELECT CONCAT(binlog_name, ':', binlog_pos) FROM dm_meta.`") + taskName_ +
                                   "_syncer_checkpoint` WHERE id = '" + sourceId + "' AND is_global = 1");
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QString output;
        QVERIFY2(secondPair_.start(&output), qPrintable(output));
        configDir_ = dir_.filePath(QStringLiteral("config")).toStdString();
        logDir_ = dir_.filePath(QStringLiteral("logs")).toStdString();
        std::filesystem::create_directories(configDir_);
        std::filesystem::create_directories(logDir_);
        up_ = std::make_unique<UpstreamConnection>(syncscope::test::engineSettings(syncscope::test::upstreamRoot()));
        second_ = std::make_unique<UpstreamConnection>(
            syncscope::test::engineSettings(syncscope::test::SecondPair::upstreamRoot()));
        down_ =
            std::make_unique<UpstreamConnection>(syncscope::test::engineSettings(syncscope::test::downstreamRoot()));
        firstSource_ =
            syncscope::test::writeSourceFile(configDir_, kSourceFirst, syncscope::test::upstreamReplication());
        secondSource_ = syncscope::test::writeSourceFile(configDir_, kSourceSecond,
                                                         syncscope::test::SecondPair::upstreamReplication());
        prepareTask(kTaskName, "pessimistic");
        port_ = syncscope::test::freeLoopbackPort();
        QVERIFY(port_ > 0);
    }

    void cleanupTestCase() {
        if (run_.state() == QProcess::Running) {
            run_.terminate();
            run_.waitForFinished(kCliTimeoutMs);
        }
        QString output;
        QVERIFY2(secondPair_.stop(&output), qPrintable(output));
    }

    void shardsMergeIntoOneTable() {
        startRun();
        for (int round = 0; round < 3; ++round) {
            for (int shard = 0; shard < 3; ++shard) {
                writeRound(shard);
            }
        }
        QVERIFY2(syncscope::test::waitFor([&] { return downstreamRows(false) == unionOfShards(false); }),
                 stderrText().c_str());
        QVERIFY(get("/api/v1/shard-locks")["shard_locks"].empty());
    }

    void anAddColumnWaitsForEveryShardAcrossAKillAndRunsOnce() {
        // The first shard reads the DDL; its later rows wait, the other shards' rows go on applying.
        up_->execute("ALTER TABLE sm_1.t ADD COLUMN c INT NOT NULL DEFAULT 7");
        hasC_[0] = true;
        writeRound(0);
        QVERIFY2(syncscope::test::waitFor([&] { return !waitingLock().is_null(); }), stderrText().c_str());
        json lock = waitingLock();
        QCOMPARE(tablesIn(lock["arrived"]), (std::set<std::string>{"sm-first:sm_1.t"}));
        QCOMPARE(tablesIn(lock["waiting_for"]), (std::set<std::string>{"sm-first:sm_2.t", "sm-second:sm_3.t"}));
        QVERIFY2(lock["ddls"].dump().find("ADD COLUMN") != std::string::npos, lock.dump().c_str());
        const std::string heldGlobal = globalPersisted(kSourceFirst);
        for (int round = 0; round < 2; ++round) {
            writeRound(1);
            writeRound(2);
        }
        // sm_2 and sm_3 keep applying in the old shape; sm.t has no column c yet.
        QVERIFY2(syncscope::test::waitFor([&] {
                     const std::string down = downstreamRows(false);
                     for (int shard : {1, 2}) {
                         for (const auto& row : serverOf(shard).query(
                                  std::string("SELECT CONCAT_WS('|', id, v) FROM ") + kShards[shard].database + ".t")) {
                             if (down.find(*row[0] + "\n") == std::string::npos) {
                                 return false;
                             }
                         }
                     }
                     return true;
                 }),
                 stderrText().c_str());
        QCOMPARE(valueOf(*down_,
                         "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'sm' AND "
                         "TABLE_NAME = 't' AND COLUMN_NAME = 'c'"),
                 std::string("0"));
        // The first source's global point holds before the DDL while its other table's point runs ahead.
        QVERIFY(syncscope::test::waitFor([&] {
            json status = get("/api/v1/status?source=" + std::string(kSourceFirst));
            for (const json& table : status["tables"]) {
                if (table["schema"] == "sm_2" && table["ahead_of_global"] == true) {
                    return true;
                }
            }
            return false;
        }));
        // It may still take a flush planned before the DDL (the workers had not committed it when the lock
        // appeared), never a point past the DDL's arrival.
        const std::string persisted = globalPersisted(kSourceFirst);
        const std::string arrival = lock["arrived"][0]["position"].get<std::string>();
        using syncscope::binlog::BinlogPosition;
        QVERIFY2(BinlogPosition::parse(heldGlobal) <= BinlogPosition::parse(persisted) &&
                     BinlogPosition::parse(persisted) <= BinlogPosition::parse(arrival.substr(0, arrival.find(' '))),
                 ("the first source's persisted global point moved past its waiting shard DDL: " + heldGlobal + " -> " +
                  persisted + "; the lock: " + waitingLock().dump())
                     .c_str());
        // syncscope-cli status, without asking the engine: the waiting lock as kept beside the checkpoint.
        json report = json::parse(statusOutput(true), nullptr, false);
        QVERIFY2(report.is_object() && report["sources"].size() == 2, report.dump(2).c_str());
        const json& kept = report["sources"][1]["shard_locks"];  // the second source is waited for
        const std::set<std::string> keptWaiting = tablesIn(kept[0]["waiting_for"]);
        const std::set<std::string> keptArrived = tablesIn(kept[0]["arrived"]);
        QVERIFY2(kept.size() == 1 && kept[0]["state"] == "waiting", report.dump(2).c_str());
        QCOMPARE(keptWaiting, (std::set<std::string>{"sm-first:sm_2.t", "sm-second:sm_3.t"}));
        QCOMPARE(keptArrived, (std::set<std::string>{"sm-first:sm_1.t"}));
        // In text: sm_2.t ahead of the first source's global point, explained by the lock.
        const std::string printed = statusOutput(false);
        QVERIFY2(printed.find("expected while the shard DDL lock on sm.t holds this source's global point") !=
                     std::string::npos,
                 printed.c_str());
        const std::string page = metrics();
        QVERIFY2(page.find("syncscope_shard_ddl_lock_waiting_tables{") != std::string::npos, page.c_str());
        QVERIFY(get("/api/v1/status")["shard_locks"].size() == 1);

        // SIGKILL while the lock waits; the restart reads the first shard's DDL again and waits again.
        ::kill(static_cast<pid_t>(run_.processId()), SIGKILL);
        QVERIFY(run_.waitForFinished(kCliTimeoutMs));
        writeRound(1);
        startRun();
        QVERIFY2(syncscope::test::waitFor([&] { return !waitingLock().is_null(); }), stderrText().c_str());
        QCOMPARE(tablesIn(waitingLock()["waiting_for"]),
                 (std::set<std::string>{"sm-first:sm_2.t", "sm-second:sm_3.t"}));

        // The second shard reads it seconds later, then the third on the other upstream.
        up_->execute("ALTER TABLE sm_2.t ADD COLUMN c INT NOT NULL DEFAULT 7");
        hasC_[1] = true;
        writeRound(1);
        writeRound(2);
        QVERIFY2(syncscope::test::waitFor([&] {
                     return tablesIn(waitingLock()["waiting_for"]) == std::set<std::string>{"sm-second:sm_3.t"};
                 }),
                 stderrText().c_str());
        writeRound(0);
        second_->execute("ALTER TABLE sm_3.t ADD COLUMN c INT NOT NULL DEFAULT 7");
        hasC_[2] = true;
        for (int round = 0; round < 2; ++round) {
            for (int shard = 0; shard < 3; ++shard) {
                writeRound(shard);
            }
        }
        QVERIFY2(syncscope::test::waitFor([&] { return downstreamRows(true) == unionOfShards(true); }),
                 (stderrText() + "\nlock: " + waitingLock().dump()).c_str());
        QCOMPARE(valueOf(*down_,
                         "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'sm' AND "
                         "TABLE_NAME = 't' AND COLUMN_NAME = 'c'"),
                 std::string("1"));
        QVERIFY2(syncscope::test::waitFor([&] { return get("/api/v1/shard-locks")["shard_locks"].empty(); }),
                 get("/api/v1/shard-locks").dump().c_str());
        QVERIFY(syncscope::test::waitFor([&] {
            return valueOf(*down_, std::string("SELECT COUNT(*) FROM dm_meta.`") + kTaskName +
                                       "_syncscope_shard_locks`") == "0";
        }));
        QCOMPARE(stageOf(kSourceFirst), std::string("Running"));
        QCOMPARE(stageOf(kSourceSecond), std::string("Running"));
        // Ran once: one "ran downstream" in the log.
        QCOMPARE(logCount("shard DDL lock on sm.t ran downstream"), size_t{1});
        const std::string log = readTextFile(logDir_ + "/" + taskName_ + ".log");
        // The sources whose tables waited read again from their held global points.
        // The first source's tables waited: it read again from its held global point, passing both DDLs by
        // their table points.
        QVERIFY2(log.find("(re-sync)") != std::string::npos, log.c_str());
        QVERIFY2(log.find("shard DDL of sm-first:sm_2.t at") != std::string::npos &&
                     log.find("ran downstream before (its table point covers it)") != std::string::npos,
                 log.c_str());
    }

    void aShardThatNeverReadsTheDdlIsLeftByTheDbasAuditedUnlock() {
        up_->execute("ALTER TABLE sm_1.t ADD COLUMN d INT NULL");
        up_->execute("ALTER TABLE sm_2.t ADD COLUMN d INT NULL");
        QVERIFY2(syncscope::test::waitFor([&] {
                     return tablesIn(waitingLock()["waiting_for"]) == std::set<std::string>{"sm-second:sm_3.t"};
                 }),
                 stderrText().c_str());
        // Nothing to unlock on a table without a lock, and a name that is no table: refused, nothing changed.
        QCOMPARE(post("/api/v1/shard-locks/unlock?target=sm.nothing")["accepted"], json(false));
        QCOMPARE(post("/api/v1/shard-locks/unlock?target=sm")["accepted"], json(false));
        QVERIFY(!waitingLock().is_null());
        // The preview says what the unlock does, and changes nothing.
        json preview = get("/api/v1/preview/shard-unlock?target=sm.t");
        QVERIFY2(preview.value("preview", std::string()).find("without sm-second:sm_3.t") != std::string::npos,
                 preview.dump().c_str());
        QVERIFY(!waitingLock().is_null());
        QCOMPARE(valueOf(*down_,
                         "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'sm' AND "
                         "TABLE_NAME = 't' AND COLUMN_NAME = 'd'"),
                 std::string("0"));
        json answer = post("/api/v1/shard-locks/unlock?target=sm.t");
        QVERIFY2(answer["accepted"] == json(true), answer.dump().c_str());
        QVERIFY2(readTextFile(logDir_ + "/" + kTaskName + "-audit.jsonl").find("\"shard-unlock\"") != std::string::npos,
                 readTextFile(logDir_ + "/" + kTaskName + "-audit.jsonl").c_str());
        QVERIFY2(syncscope::test::waitFor([&] {
                     return valueOf(*down_,
                                    "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = "
                                    "'sm' AND TABLE_NAME = 't' AND COLUMN_NAME = 'd'") == "1";
                 }),
                 stderrText().c_str());
        // sm_3 still writes its old shape (d is nullable): every shard's rows arrive.
        for (int shard = 0; shard < 3; ++shard) {
            writeRound(shard);
        }
        QVERIFY2(syncscope::test::waitFor([&] { return downstreamRows(true) == unionOfShards(true); }),
                 (stderrText() + "\nlocks: " + get("/api/v1/shard-locks").dump()).c_str());
        // When sm_3 reads the DDL at last it is passed over, and the lock goes.
        second_->execute("ALTER TABLE sm_3.t ADD COLUMN d INT NULL");
        writeRound(2);
        QVERIFY2(syncscope::test::waitFor([&] { return get("/api/v1/shard-locks")["shard_locks"].empty(); }),
                 get("/api/v1/shard-locks").dump().c_str());
        QVERIFY2(syncscope::test::waitFor([&] { return downstreamRows(true) == unionOfShards(true); }),
                 stderrText().c_str());
        QCOMPARE(stageOf(kSourceSecond), std::string("Running"));
    }

    // The lock's DDL fails downstream (the merged table has a column of that name the DBA added by mistake): the
    // source that ran it stops naming the DDL and why, the other shards' tables keep waiting; once
    // the DBA has made the merged table as the DDL leaves it, a resume of that source passes the lock, and every
    // shard's rows arrive.
    void aLockWhoseDdlFailsDownstreamRunsAfterTheDbasFixAndAResume() {
        down_->execute("ALTER TABLE sm.t ADD COLUMN h VARCHAR(5) NULL");
        up_->execute("ALTER TABLE sm_1.t ADD COLUMN h INT NULL");
        up_->execute("ALTER TABLE sm_2.t ADD COLUMN h INT NULL");
        QVERIFY2(syncscope::test::waitFor([&] {
                     return tablesIn(waitingLock()["waiting_for"]) == std::set<std::string>{"sm-second:sm_3.t"};
                 }),
                 stderrText().c_str());
        second_->execute("ALTER TABLE sm_3.t ADD COLUMN h INT NULL");
        QVERIFY2(syncscope::test::waitFor([&] { return stageOf(kSourceSecond) == "Error"; }), stderrText().c_str());
        const std::string reason =
            get("/api/v1/status?source=" + std::string(kSourceSecond)).value("stage_reason", std::string());
        // The server's refusal, or (inside a replay window) the judge's: the downstream's h is not the DDL's.
        QVERIFY2(reason.find("ADD COLUMN h INT NULL") != std::string::npos &&
                     (reason.find("Duplicate column name 'h'") != std::string::npos ||
                      reason.find("`h` varchar(5)") != std::string::npos),
                 reason.c_str());
        QCOMPARE(columnType("h"), std::string("varchar(5)"));
        QCOMPARE(stageOf(kSourceFirst), std::string("Running"));
        writeRound(0);  // the first source's tables wait in the lock: their rows are read again once it runs

        // The fix the stop asks for: the merged table as the DDL leaves it (outside a replay window the resume runs
        // the lock again and its DDL finds this already done; inside one, the judge did).
        down_->execute("ALTER TABLE sm.t MODIFY h INT NULL");
        json resumed = post("/api/v1/resume?source=" + std::string(kSourceSecond));
        QVERIFY2(resumed["accepted"] == json(true), resumed.dump().c_str());
        QVERIFY2(syncscope::test::waitFor([&] { return stageOf(kSourceSecond) == "Running"; }), stderrText().c_str());
        QVERIFY2(syncscope::test::waitFor([&] { return get("/api/v1/shard-locks")["shard_locks"].empty(); }),
                 get("/api/v1/shard-locks").dump().c_str());
        for (int shard = 0; shard < 3; ++shard) {
            writeRound(shard);
        }
        QVERIFY2(syncscope::test::waitFor([&] { return downstreamRows(true) == unionOfShards(true); }),
                 stderrText().c_str());
        QCOMPARE(stageOf(kSourceFirst), std::string("Running"));
        QCOMPARE(stageOf(kSourceSecond), std::string("Running"));
    }

    void differentDdlsOnTwoShardsStopNamingBoth() {
        up_->execute("ALTER TABLE sm_1.t ADD COLUMN f INT");
        up_->execute("ALTER TABLE sm_2.t ADD COLUMN g INT");
        QVERIFY2(syncscope::test::waitFor([&] { return stageOf(kSourceFirst) == "Error"; }), stderrText().c_str());
        json status = get("/api/v1/status?source=" + std::string(kSourceFirst));
        const std::string reason = status.value("stage_reason", std::string());
        QVERIFY2(reason.find("shard DDLs differ") != std::string::npos && reason.find("sm_1.t") != std::string::npos &&
                     reason.find("sm_2.t") != std::string::npos,
                 status.dump(2).c_str());
        QCOMPARE(stageOf(kSourceSecond), std::string("Running"));
        // The DBA skips the shard's differing DDL (previewed, audited as any skip): the source goes on, and the
        // lock still waits for the shard tables that have not read the first one.
        json preview = get("/api/v1/preview/skip");
        QVERIFY2(preview["preview"].value("transactions", 0) == 1 && preview["preview"].value("rows", -1) == 0,
                 preview.dump().c_str());  // the DDL's own transaction, no row
        json skipped = post("/api/v1/skip");
        QVERIFY2(skipped["accepted"] == json(true), skipped.dump().c_str());
        QVERIFY2(syncscope::test::waitFor([&] { return stageOf(kSourceFirst) == "Running"; }), stderrText().c_str());
        QVERIFY2(syncscope::test::waitFor([&] {
                     return tablesIn(waitingLock()["waiting_for"]) ==
                            std::set<std::string>{"sm-first:sm_2.t", "sm-second:sm_3.t"};
                 }),
                 get("/api/v1/shard-locks").dump().c_str());
        run_.terminate();
        QVERIFY(run_.waitForFinished(kCliTimeoutMs));
    }

    // Three upstream servers, one shard table on each (the test pair's, the second pair's and a third pair's
    // upstream): an ADD COLUMN reaching them seconds apart with writes between, a SIGKILL while the lock waits for
    // the third; the merged table ends equal to the union of the three, the DDL run once.
    void threeUpstreamServersMergeAcrossAKill() {
        syncscope::test::SecondPair third(3);
        QString output;
        QVERIFY2(third.start(&output), qPrintable(output));
        UpstreamConnection thirdUp(syncscope::test::engineSettings(syncscope::test::SecondPair::upstreamRoot(3)));
        const char* const task = "sm3_task";
        UpstreamConnection* servers[] = {up_.get(), second_.get(), &thirdUp};
        const char* const databases[] = {"s3_1", "s3_2", "s3_3"};
        const char* const sources[] = {"s3-first", "s3-second", "s3-third"};
        const syncscope::test::ServerSettings replication[] = {syncscope::test::upstreamReplication(),
                                                               syncscope::test::SecondPair::upstreamReplication(2),
                                                               syncscope::test::SecondPair::upstreamReplication(3)};
        std::vector<syncscope::test::InstanceOfTask> instances;
        QStringList args{QStringLiteral("run")};
        std::vector<std::string> sourceFiles;
        for (int i = 0; i < 3; ++i) {
            UpstreamConnection& server = *servers[i];
            server.execute("SET SESSION sql_log_bin = 0");
            server.execute(std::string("DROP DATABASE IF EXISTS ") + databases[i]);
            server.execute(std::string("CREATE DATABASE ") + databases[i]);
            server.execute(std::string("CREATE TABLE ") + databases[i] + ".t (id INT PRIMARY KEY, v VARCHAR(60))");
            server.execute("SET SESSION sql_log_bin = 1");
            auto end = server.query("SHOW MASTER STATUS");
            instances.push_back({sources[i], "s3_*", *end.front()[0], std::stoull(*end.front()[1])});
            sourceFiles.push_back(syncscope::test::writeSourceFile(configDir_, sources[i], replication[i]));
        }
        down_->execute("DROP DATABASE IF EXISTS s3");
        down_->execute("CREATE DATABASE s3");
        down_->execute("CREATE TABLE s3.t (id INT PRIMARY KEY, v VARCHAR(60))");
        for (const char* suffix : {"_syncer_checkpoint", "_syncscope_paused_sources", "_syncscope_shard_locks"}) {
            down_->execute(std::string("DROP TABLE IF EXISTS dm_meta.`") + task + suffix + "`");
        }
        const std::string taskFile = syncscope::test::writeMultiSourceTaskFile(
            configDir_, task, syncscope::test::downstreamRoot(), instances, "    route-rules: [\"merge-s3\"]\n",
            "shard-mode: \"pessimistic\"\n"
            "routes:\n"
            "  merge-s3: {schema-pattern: \"s3_*\", table-pattern: \"t\", target-schema: \"s3\", target-table: "
            "\"t\"}\n");
        args << QString::fromStdString(taskFile);
        for (const std::string& file : sourceFiles) {
            args << QStringLiteral("--source") << QString::fromStdString(file);
        }
        args << QStringLiteral("--log-dir") << QString::fromStdString(logDir_) << QStringLiteral("--listen")
             << QStringLiteral("127.0.0.1:%1").arg(port_);
        const std::string log = logDir_ + "/" + task + ".log";
        QProcess engine;
        auto startEngine = [&] {
            engine.setStandardErrorFile(QString::fromStdString(logDir_ + "/three-stderr.txt"), QIODevice::Append);
            engine.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"), args);
            QVERIFY(engine.waitForStarted());
            QVERIFY2(syncscope::test::waitFor([&] {
                         return stageOf(sources[0]) == "Running" && stageOf(sources[1]) == "Running" &&
                                stageOf(sources[2]) == "Running";
                     }),
                     readTextFile(logDir_ + "/three-stderr.txt").c_str());
        };
        int next = 0;
        bool hasC[3] = {false, false, false};
        auto writeAll = [&] {
            for (int i = 0; i < 3; ++i) {
                const int id = (i + 1) * 100000 + next++;
                servers[i]->execute(std::string("INSERT INTO ") + databases[i] + ".t" + (hasC[i] ? " (id, v, c)" : "") +
                                    " VALUES (" + std::to_string(id) + ", 'r" + std::to_string(id) + "'" +
                                    (hasC[i] ? ", 3" : "") + ")");
                servers[i]->execute(std::string("UPDATE ") + databases[i] +
                                    ".t SET v = CONCAT(v, 'u') WHERE id % 3 = 0");
            }
        };
        startEngine();
        writeAll();
        for (int i = 0; i < 3; ++i) {
            servers[i]->execute(std::string("ALTER TABLE ") + databases[i] + ".t ADD COLUMN c INT NOT NULL DEFAULT 7");
            hasC[i] = true;
            writeAll();
            if (i == 1) {
                // Two of three have read it: the lock waits for the third server's shard; SIGKILL now.
                QVERIFY2(syncscope::test::waitFor([&] {
                             json locks = get("/api/v1/shard-locks");
                             return locks.is_object() && locks["shard_locks"].size() == 1 &&
                                    tablesIn(locks["shard_locks"][0]["waiting_for"]) ==
                                        std::set<std::string>{"s3-third:s3_3.t"};
                         }),
                         (get("/api/v1/shard-locks").dump() + readTextFile(log)).c_str());
                ::kill(static_cast<pid_t>(engine.processId()), SIGKILL);
                QVERIFY(engine.waitForFinished(kCliTimeoutMs));
                writeAll();
                startEngine();
            }
        }
        writeAll();
        auto unionOfAll = [&] {
            std::string rows;
            for (int i = 0; i < 3; ++i) {
                for (const auto& row : servers[i]->query(std::string("SELECT CONCAT_WS('|', id, v, c) FROM ") +
                                                         databases[i] + ".t ORDER BY id")) {
                    rows += *row[0] + "\n";
                }
            }
            return rows;
        };
        QVERIFY2(syncscope::test::waitFor([&] {
                     try {
                         std::string rows;
                         for (const auto& row : down_->query("SELECT CONCAT_WS('|', id, v, c) FROM s3.t ORDER BY id")) {
                             rows += *row[0] + "\n";
                         }
                         return rows == unionOfAll();
                     } catch (const syncscope::source::UpstreamError&) {
                         return false;
                     }
                 }),
                 readTextFile(log).c_str());
        QVERIFY(syncscope::test::waitFor([&] { return get("/api/v1/shard-locks")["shard_locks"].empty(); }));
        QCOMPARE(valueOf(*down_,
                         "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 's3' AND "
                         "TABLE_NAME = 't' AND COLUMN_NAME = 'c'"),
                 std::string("1"));
        engine.terminate();
        QVERIFY(engine.waitForFinished(kCliTimeoutMs));
        QCOMPARE(engine.exitCode(), 0);
        QVERIFY2(third.stop(&output), qPrintable(output));
    }

    // A DM deployment's own sharding state (`<task>_syncer_sharding_meta`, DM's columns and JSON as
    // dm/syncer/sharding-meta writes them): syncscope-cli status names its unresolved lock, without an engine.
    void aDmDeploymentsShardingMetaIsReadByStatus() {
        const std::string table = std::string("dm_meta.`") + kTaskName + "_syncer_sharding_meta`";
        down_->execute("CREATE TABLE " + table +
                       " (source_id VARCHAR(32) NOT NULL, target_table_id VARCHAR(144) NOT NULL, source_table_id "
                       "VARCHAR(144) NOT NULL, active_index INT, is_global BOOLEAN, data JSON, create_time timestamp "
                       "DEFAULT CURRENT_TIMESTAMP, update_time timestamp DEFAULT CURRENT_TIMESTAMP ON UPDATE "
                       "CURRENT_TIMESTAMP, UNIQUE KEY uk_source_id_table_id_source (source_id, target_table_id, "
                       "source_table_id))");
        const std::string item =
            R"([{"first-pos":{"Name":"mysql-bin.000007","Pos":1234},"ddls":["ALTER TABLE `sm`.`t` ADD COLUMN `z` INT"],"source":"`sm_1`.`t`"}])";
        for (const std::string& shard : {std::string(), std::string("`sm_1`.`t`")}) {
            down_->execute("INSERT INTO " + table + " (source_id, target_table_id, source_table_id, active_index, " +
                           "is_global, data) VALUES ('sm-first', '`sm`.`t`', '" + shard + "', 0, " +
                           (shard.empty() ? "1" : "0") + ", '" + item + "')");
        }
        json report = json::parse(statusOutput(true), nullptr, false);
        down_->execute("DROP TABLE " + table);
        QVERIFY2(report.is_object() && report["sources"].size() == 2, report.dump(2).c_str());
        const json& groups = report["sources"][0]["dm_sharding_groups"];
        QVERIFY2(groups.size() == 1, report.dump(2).c_str());
        QCOMPARE(groups[0]["target"], json("`sm`.`t`"));
        QCOMPARE(groups[0]["unresolved"], json(true));
        QCOMPARE(groups[0]["first_read_at"], json("mysql-bin.000007:1234"));
        QCOMPARE(groups[0]["first_read_by"], json("`sm_1`.`t`"));
        QCOMPARE(groups[0]["tables_at_active_ddl"], json::array({"`sm_1`.`t`"}));
        QCOMPARE(groups[0]["active_ddls"], json::array({"ALTER TABLE `sm`.`t` ADD COLUMN `z` INT"}));
        QVERIFY2(report["sources"][1]["dm_sharding_groups"].empty(), report.dump(2).c_str());
    }

    // A task with one source whose own shard tables merge (routes within one upstream): the same lock, through
    // `run` with one --source.
    void oneSourcesOwnShardsMergeThroughTheOneSourceRun() {
        const char* const task = "smo_task";
        for (const char* database : {"smo_1", "smo_2"}) {
            up_->execute("SET SESSION sql_log_bin = 0");
            up_->execute(std::string("DROP DATABASE IF EXISTS ") + database);
            up_->execute(std::string("CREATE DATABASE ") + database);
            up_->execute(std::string("CREATE TABLE ") + database + ".t (id INT PRIMARY KEY, v VARCHAR(60))");
            up_->execute("SET SESSION sql_log_bin = 1");
        }
        down_->execute("DROP DATABASE IF EXISTS smo");
        down_->execute("CREATE DATABASE smo");
        down_->execute("CREATE TABLE smo.t (id INT PRIMARY KEY, v VARCHAR(60))");
        for (const char* suffix : {"_syncer_checkpoint", "_syncscope_paused_sources", "_syncscope_shard_locks"}) {
            down_->execute(std::string("DROP TABLE IF EXISTS dm_meta.`") + task + suffix + "`");
        }
        auto end = up_->query("SHOW MASTER STATUS");
        const std::string taskFile = syncscope::test::writeMultiSourceTaskFile(
            configDir_, task, syncscope::test::downstreamRoot(),
            {{kSourceFirst, "smo_*", *end.front()[0], std::stoull(*end.front()[1])}},
            "    route-rules: [\"merge-smo\"]\n",
            "shard-mode: \"pessimistic\"\n"
            "routes:\n"
            "  merge-smo: {schema-pattern: \"smo_*\", table-pattern: \"t\", target-schema: \"smo\", target-table: "
            "\"t\"}\n");
        QProcess one;
        one.setStandardErrorFile(QString::fromStdString(logDir_ + "/one-stderr.txt"));
        one.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"),
                  {QStringLiteral("run"), QString::fromStdString(taskFile), QStringLiteral("--source"),
                   QString::fromStdString(firstSource_), QStringLiteral("--log-dir"), QString::fromStdString(logDir_),
                   QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port_)});
        QVERIFY(one.waitForStarted());
        const std::string log = logDir_ + "/" + task + ".log";
        QVERIFY2(syncscope::test::waitFor([&] { return stageOf(kSourceFirst) == "Running"; }),
                 readTextFile(logDir_ + "/one-stderr.txt").c_str());
        up_->execute("INSERT INTO smo_1.t VALUES (1, 'a'), (2, 'b')");
        up_->execute("INSERT INTO smo_2.t VALUES (1001, 'c')");
        up_->execute("ALTER TABLE smo_1.t ADD COLUMN c INT NOT NULL DEFAULT 7");
        up_->execute("INSERT INTO smo_1.t VALUES (3, 'd', 1)");
        up_->execute("INSERT INTO smo_2.t VALUES (1002, 'e')");
        QVERIFY2(syncscope::test::waitFor([&] {
                     json locks = get("/api/v1/shard-locks");
                     return locks.is_object() && locks["shard_locks"].size() == 1 &&
                            tablesIn(locks["shard_locks"][0]["waiting_for"]) ==
                                std::set<std::string>{"sm-first:smo_2.t"};
                 }),
                 (get("/api/v1/shard-locks").dump() + readTextFile(log)).c_str());
        QVERIFY(syncscope::test::waitFor([&] { return valueOf(*down_, "SELECT COUNT(*) FROM smo.t") == "4"; }));
        up_->execute("ALTER TABLE smo_2.t ADD COLUMN c INT NOT NULL DEFAULT 7");
        up_->execute("UPDATE smo_2.t SET c = 9 WHERE id = 1002");
        const std::string expected = "1|a|7\n2|b|7\n3|d|1\n1001|c|7\n1002|e|9\n";
        QVERIFY2(
            syncscope::test::waitFor([&] {
                try {
                    std::string rows;
                    for (const auto& row : down_->query("SELECT CONCAT_WS('|', id, v, c) FROM smo.t ORDER BY id")) {
                        rows += *row[0] + "\n";
                    }
                    return rows == expected;
                } catch (const syncscope::source::UpstreamError&) {
                    return false;
                }
            }),
            readTextFile(log).c_str());
        // Passed by both shard tables once the re-sync has read past the DDLs.
        QVERIFY2(syncscope::test::waitFor([&] { return get("/api/v1/shard-locks")["shard_locks"].empty(); }),
                 get("/api/v1/shard-locks").dump().c_str());
        one.terminate();
        QVERIFY(one.waitForFinished(kCliTimeoutMs));
        QCOMPARE(one.exitCode(), 0);
    }

    // shard-mode: optimistic on the same three shards and two servers: an ADD COLUMN with a default runs on the
    // merged table at once, no lock, while the shards that lack the column go on applying (the merged table gives
    // their rows its default); across a SIGKILL the other shards' same ADD COLUMN is passed over; a widening runs;
    // a unique index waits for every shard through the lock and runs once; a column added with another type, and
    // a column dropped while other shards write it, stop their source naming both sides.
    void optimisticModeRunsWhatFitsEveryShardAtOnce() {
        prepareTask("smopt_task", "optimistic");
        startRun();
        for (int shard = 0; shard < 3; ++shard) {
            writeRound(shard);
        }
        up_->execute("ALTER TABLE sm_1.t ADD COLUMN c INT NOT NULL DEFAULT 7");
        hasC_[0] = true;
        for (int round = 0; round < 2; ++round) {
            for (int shard = 0; shard < 3; ++shard) {
                writeRound(shard);
            }
        }
        QVERIFY2(syncscope::test::waitFor([&] { return downstreamRows(true) == unionOfShards(true); }),
                 stderrText().c_str());
        QCOMPARE(columnType("c"), std::string("int(11)"));
        QVERIFY(get("/api/v1/shard-locks")["shard_locks"].empty());
        QCOMPARE(logCount("ran on the merged table sm.t at once"), size_t{1});
        const std::set<std::string> lacking{"sm-first:sm_2.t", "sm-second:sm_3.t"};
        QVERIFY2(syncscope::test::waitFor([&] { return awaitedColumn("c") == lacking; }),
                 get("/api/v1/shard-locks").dump().c_str());
        const std::string page = metrics();
        QVERIFY2(page.find("syncscope_shard_column_awaited_tables{") != std::string::npos &&
                     page.find("column=\"c\"") != std::string::npos,
                 page.c_str());
        // Nothing held: the first source's global point is persisted past the DDL as rows go on.
        const std::string afterAdd = globalPersisted(kSourceFirst);
        writeRound(1);
        QVERIFY(syncscope::test::waitFor([&] { return globalPersisted(kSourceFirst) != afterAdd; }));

        ::kill(static_cast<pid_t>(run_.processId()), SIGKILL);
        QVERIFY(run_.waitForFinished(kCliTimeoutMs));
        writeRound(2);
        startRun();
        // syncscope-cli status without the engine reads the same from beside the checkpoint.
        const std::string printed = statusOutput(false);
        QVERIFY2(printed.find("shard column c of sm.t (optimistic): added by sm-first:sm_1.t; the merged table's "
                              "other shard tables lack it") != std::string::npos,
                 printed.c_str());
        json report = json::parse(statusOutput(true), nullptr, false);
        QVERIFY2(report.is_object() && report["sources"][0]["shard_columns"].size() == 1 &&
                     report["sources"][0]["shard_columns"][0]["column"] == "c",
                 report.dump(2).c_str());
        // Kept beside the checkpoint: the restart still knows who lacks c.
        QVERIFY2(syncscope::test::waitFor([&] { return awaitedColumn("c") == lacking; }),
                 get("/api/v1/shard-locks").dump().c_str());
        up_->execute("ALTER TABLE sm_2.t ADD COLUMN c INT NOT NULL DEFAULT 7");
        hasC_[1] = true;
        writeRound(1);
        second_->execute("ALTER TABLE sm_3.t ADD COLUMN c INT NOT NULL DEFAULT 7");
        hasC_[2] = true;
        // A widening on one shard runs at once.
        second_->execute("ALTER TABLE sm_3.t MODIFY v VARCHAR(120)");
        for (int shard = 0; shard < 3; ++shard) {
            writeRound(shard);
        }
        QVERIFY2(syncscope::test::waitFor([&] { return downstreamRows(true) == unionOfShards(true); }),
                 stderrText().c_str());
        QVERIFY2(syncscope::test::waitFor([&] { return columnType("v") == "varchar(120)"; }), stderrText().c_str());
        QCOMPARE(logCount("passed over (column c is in the merged table already)"), size_t{2});
        QVERIFY2(syncscope::test::waitFor([&] { return get("/api/v1/shard-locks")["shard_columns"].empty(); }),
                 get("/api/v1/shard-locks").dump().c_str());
        QCOMPARE(logCount("ran on the merged table sm.t at once"), size_t{2});

        // A unique index must hold over every shard's rows: it waits in the lock, then runs once.
        up_->execute("ALTER TABLE sm_1.t ADD UNIQUE KEY uv (v)");
        writeRound(0);
        QVERIFY2(syncscope::test::waitFor([&] { return !waitingLock().is_null(); }), stderrText().c_str());
        QCOMPARE(tablesIn(waitingLock()["waiting_for"]),
                 (std::set<std::string>{"sm-first:sm_2.t", "sm-second:sm_3.t"}));
        up_->execute("ALTER TABLE sm_2.t ADD UNIQUE KEY uv (v)");
        second_->execute("ALTER TABLE sm_3.t ADD UNIQUE KEY uv (v)");
        for (int shard = 0; shard < 3; ++shard) {
            writeRound(shard);
        }
        QVERIFY2(syncscope::test::waitFor([&] { return get("/api/v1/shard-locks")["shard_locks"].empty(); }),
                 get("/api/v1/shard-locks").dump().c_str());
        QVERIFY2(syncscope::test::waitFor([&] { return downstreamRows(true) == unionOfShards(true); }),
                 stderrText().c_str());
        QCOMPARE(valueOf(*down_,
                         "SELECT COUNT(DISTINCT INDEX_NAME) FROM information_schema.STATISTICS WHERE "
                         "TABLE_SCHEMA = 'sm' AND TABLE_NAME = 't' AND INDEX_NAME = 'uv'"),
                 std::string("1"));

        // A column added with another type than the merged table's: the second source stops naming both.
        up_->execute("ALTER TABLE sm_1.t ADD COLUMN e INT NOT NULL DEFAULT 0");
        QVERIFY2(syncscope::test::waitFor([&] { return columnType("e") == "int(11)"; }), stderrText().c_str());
        second_->execute("ALTER TABLE sm_3.t ADD COLUMN e VARCHAR(10) DEFAULT 'x'");
        QVERIFY2(syncscope::test::waitFor([&] { return stageOf(kSourceSecond) == "Error"; }), stderrText().c_str());
        std::string reason = get("/api/v1/status?source=" + std::string(kSourceSecond)).value("stage_reason", "");
        QVERIFY2(reason.find("shard table sm-second:sm_3.t adds column e as varchar(10), but the merged table sm.t "
                             "has it as int(11)") != std::string::npos,
                 reason.c_str());
        QCOMPARE(columnType("e"), std::string("int(11)"));
        QCOMPARE(stageOf(kSourceFirst), std::string("Running"));

        // A column dropped while other shard tables still write it: the first source stops naming them.
        up_->execute("ALTER TABLE sm_1.t DROP COLUMN c");
        QVERIFY2(syncscope::test::waitFor([&] { return stageOf(kSourceFirst) == "Error"; }), stderrText().c_str());
        reason = get("/api/v1/status?source=" + std::string(kSourceFirst)).value("stage_reason", "");
        QVERIFY2(reason.find("shard table sm-first:sm_1.t drops column c of the merged table sm.t while these shard "
                             "tables still write it: sm-first:sm_2.t, sm-second:sm_3.t") != std::string::npos,
                 reason.c_str());
        QCOMPARE(columnType("c"), std::string("int(11)"));
        run_.terminate();
        QVERIFY(run_.waitForFinished(kCliTimeoutMs));
    }
};

}  // namespace

QTEST_GUILESS_MAIN(ShardMergeTest)
#include "test_shard_merge.moc"
