// A replay over many DDLs goes on by itself. The task applies a burst of DDL of every kind (CREATE,
// CREATE ... LIKE, ALTER ADD/DROP/MODIFY COLUMN, ADD/DROP INDEX, CREATE/DROP INDEX, RENAME, TRUNCATE,
// DROP TABLE) interleaved with rows, then is paused and resumed from a point before all of them: every
// replayed DDL is judged by the downstream's definitions (passed over where it was applied before, run
// where not) and the tables end equal to the upstream's, definitions included, by file position and by
// GTID. A downstream definition changed by hand inside the window stops the task with both definitions
// and the DDL named. A connection lost while the judge looks is no verdict, but a failure the session retries.
#include <QtTest>

#include <QTemporaryDir>

#include <sstream>

#include <cppconn/connection.h>
#include <cppconn/exception.h>
#include <cppconn/resultset.h>
#include <cppconn/statement.h>

#include "engine/apply/downstream_connection.h"
#include "engine/task/replayed_ddl_judge.h"
#include "tests/integration/outage/engine_process.h"
#include "tests/integration/outage/outage_helpers.h"
#include "tests/support/task_files.h"
#include "tests/support/test_env.h"

using nlohmann::json;
using namespace syncscope::test;

namespace {

const char* const kDatabase = "rddl";
constexpr int kStageTimeoutMs = 90000;
constexpr int kCatchUpTimeoutMs = 120000;
constexpr int kHttpOk = 200;

// The burst replayed: each DDL kind at least once, rows before and after each.
const std::vector<std::string> kHistory = {
    "INSERT INTO t1 VALUES (21, 21, 0, NULL), (22, 22, 0, NULL)",
    "CREATE TABLE t2 (id INT PRIMARY KEY, a INT, b VARCHAR(20))",
    "INSERT INTO t2 VALUES (1, 10, 'one'), (2, 20, 'two'), (3, 30, 'three')",
    "CREATE TABLE t3 LIKE t2",
    "INSERT INTO t3 VALUES (1, 100, 'x'), (2, 200, 'y')",
    "ALTER TABLE t2 ADD COLUMN c INT NOT NULL DEFAULT 7",
    "UPDATE t2 SET c = id * 3 WHERE id <= 2",
    "INSERT INTO t2 VALUES (4, 40, 'four', 44)",
    "ALTER TABLE t2 ADD INDEX idx_a (a)",
    "UPDATE t2 SET a = a + 1",
    "ALTER TABLE t3 MODIFY b VARCHAR(40)",
    "INSERT INTO t3 VALUES (3, 300, 'a value longer than twenty characters')",
    "ALTER TABLE t1 ADD COLUMN w INT",
    "UPDATE t1 SET w = id * 2",
    "ALTER TABLE t1 DROP COLUMN v",
    "UPDATE t1 SET w = w + 1 WHERE id > 10",
    "CREATE INDEX idx_b ON t3 (b)",
    "UPDATE t3 SET a = a + 1",
    "ALTER TABLE t3 DROP INDEX idx_b",
    "RENAME TABLE t3 TO t4",
    "INSERT INTO t4 VALUES (4, 400, 'after the rename')",
    "TRUNCATE TABLE t4",
    "INSERT INTO t4 VALUES (5, 500, 'after the truncate'), (6, 600, 'six')",
    "CREATE TABLE t5 (id INT PRIMARY KEY, note VARCHAR(10))",
    "INSERT INTO t5 VALUES (1, 'gone soon')",
    "DROP TABLE t5",
    "DELETE FROM t2 WHERE id = 3",
    "INSERT INTO t1 (id, w) VALUES (23, 46)",
};

const std::vector<std::string> kEndTables = {"t0", "t1", "t2", "t4"};

// Definition and content of every table of the database, and the tables' names.
std::string fingerprint(const ServerSettings& server) {
    try {
        auto connection = connectTo(server);
        std::string all;
        for (const auto& row : connection->query(std::string("SHOW TABLES FROM ") + kDatabase)) {
            std::string table = std::string("`") + kDatabase + "`.`" + row[0].value_or("") + "`";
            all += row[0].value_or("") + ": " + connection->query("SHOW CREATE TABLE " + table).front()[1].value_or("");
            all += " rows " + connection->queryValue("SELECT COUNT(*) FROM " + table).value_or("NULL");
            all += " checksum " + connection->query("CHECKSUM TABLE " + table).front()[1].value_or("NULL") + "\n";
        }
        return all;
    } catch (const std::exception& e) {
        return std::string("ERROR: ") + e.what();
    }
}

}  // namespace

class ReplayedDdlTest : public QObject {
    Q_OBJECT

private:
    struct Point {
        std::string file;
        uint64_t pos = 0;
        std::string gtid;
    };

    static Point upstreamPoint() {
        auto up = connectTo(upstreamRoot());
        auto master = up->query("SHOW MASTER STATUS");
        return {*master.front()[0], std::stoull(*master.front()[1]),
                up->queryValue("SELECT @@GLOBAL.gtid_binlog_pos").value_or("")};
    }

    // The replayed DDL judge's probe databases on the downstream, one name per line.
    static std::string probeDatabases() {
        std::string names;
        for (const auto& row : connectTo(downstreamRoot())->query("SHOW DATABASES LIKE '\\_syncscope\\_replay\\_%'")) {
            names += row.at(0).value_or("") + "\n";
        }
        return names;
    }

    // The lines of `text` that hold `word`.
    static std::string linesWith(const std::string& text, const std::string& word) {
        std::string lines;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);) {
            if (line.find(word) != std::string::npos) {
                lines += line + "\n";
            }
        }
        return lines;
    }

    static bool pauseAndResumeFrom(EngineProcess& engine, const Point& point, bool gtidMode, std::string& why) {
        engine.post("/api/v1/pause");
        if (!waitFor([&] { return engine.stage() == "Paused"; }, kStageTimeoutMs)) {
            why = "not Paused: " + engine.status().dump(2);
            return false;
        }
        json body =
            gtidMode ? json{{"gtid", point.gtid}} : json{{"binlog_name", point.file}, {"binlog_pos", point.pos}};
        int status = 0;
        std::string answer = engine.post("/api/v1/resume-from", body.dump(), &status);
        if (status != kHttpOk) {
            why = "resume-from answered " + std::to_string(status) + ": " + answer;
            return false;
        }
        return true;  // resume-from resumes the task
    }

private slots:
    // The judge's connection is killed before it looks at a replayed ADD INDEX: no verdict on the definitions
    // (no "does not match" left open for the window's end), but the lost connection itself, which the session
    // retries; the next judge, on a live connection, finds the index downstream.
    void aLostConnectionWhileJudgingIsNoVerdict() {
        auto root = connectTo(downstreamRoot());
        root->execute("DROP DATABASE IF EXISTS rddl_lost");
        root->execute("CREATE DATABASE rddl_lost");
        root->execute("CREATE TABLE rddl_lost.t (id INT PRIMARY KEY, a INT, KEY idx_a (a))");
        syncscope::task::DdlPlan plan;
        plan.sql = "ALTER TABLE t ADD INDEX idx_a (a)";
        plan.defaultSchema = "rddl_lost";
        plan.tables = {{"rddl_lost", "t"}};
        const std::string prefix = syncscope::task::ReplayedDdlJudge::probePrefixFor("lost-task", "mysql-3306");
        {
            std::unique_ptr<sql::Connection> control =
                syncscope::apply::connectDownstream(engineSettings(downstreamRoot()));
            syncscope::task::ReplayedDdlJudge judge(*control, prefix);
            std::unique_ptr<sql::Statement> statement(control->createStatement());
            std::unique_ptr<sql::ResultSet> id(statement->executeQuery("SELECT CONNECTION_ID()"));
            QVERIFY(id->next());
            root->execute("KILL " + std::to_string(id->getUInt64(1)));
            int code = 0;
            try {
                judge.judge(plan, "mariadb-bin.000001:4");
            } catch (const sql::SQLException& e) {
                code = e.getErrorCode();
            }
            QVERIFY2(code == 2006 || code == 2013, std::to_string(code).c_str());
            QVERIFY(judge.conflicts().empty());
        }
        std::unique_ptr<sql::Connection> control =
            syncscope::apply::connectDownstream(engineSettings(downstreamRoot()));
        syncscope::task::ReplayedDdlJudge judge(*control, prefix);
        syncscope::task::ReplayVerdict verdict = judge.judge(plan, "mariadb-bin.000001:4");
        QVERIFY2(verdict.kind == syncscope::task::ReplayVerdict::Kind::AlreadyApplied, verdict.evidence.c_str());
        QVERIFY(judge.dropProbes().empty());
        root->execute("DROP DATABASE rddl_lost");
    }

    void aReplayOverEveryKindOfDdlEndsEqual_data() {
        QTest::addColumn<bool>("gtidMode");
        QTest::newRow("position") << false;
        QTest::newRow("gtid") << true;
    }

    void aReplayOverEveryKindOfDdlEndsEqual() {
        QFETCH(bool, gtidMode);
        for (const auto& server : {upstreamRoot(), downstreamRoot()}) {
            auto connection = connectTo(server);
            connection->execute("SET SESSION sql_log_bin = 0");
            connection->execute(std::string("DROP DATABASE IF EXISTS ") + kDatabase);
            connection->execute(std::string("CREATE DATABASE ") + kDatabase);
            // t1 references t0: a copy of t1 and its proof both carry the constraint fk_t1_p (each probe
            // lives in a database of its own, where the name is free).
            connection->execute(std::string("CREATE TABLE ") + kDatabase + ".t0 (id INT PRIMARY KEY)");
            connection->execute(std::string("CREATE TABLE ") + kDatabase +
                                ".t1 (id INT PRIMARY KEY, v INT, w0 INT NOT NULL DEFAULT 0, p INT NULL, CONSTRAINT "
                                "fk_t1_p FOREIGN KEY (p) REFERENCES t0 (id))");
            for (int id = 1; id <= 20; ++id) {
                connection->execute(std::string("INSERT INTO ") + kDatabase + ".t1 VALUES (" + std::to_string(id) +
                                    ", " + std::to_string(id * 10) + ", 0, NULL)");
            }
        }
        connectTo(downstreamRoot())->execute("DROP DATABASE IF EXISTS dm_meta");
        Point start = upstreamPoint();

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        TaskFileOptions options;
        options.name = gtidMode ? "replay-ddl-gtid" : "replay-ddl-pos";
        options.binlogName = start.file;
        options.binlogPos = start.pos;
        options.binlogGtid = start.gtid;
        options.gtidMode = gtidMode;
        options.instanceExtra = "    block-allow-list: \"only-rddl\"\n";
        options.topLevelExtra = "block-allow-list:\n  only-rddl: {do-dbs: [\"rddl\"]}\n";
        TaskFiles files = writeTaskFiles(dir.path().toStdString(), options);
        std::string logDir = dir.filePath(QStringLiteral("logs")).toStdString();
        std::string logFile = logDir + "/" + options.name + ".log";
        // A probe database an earlier run of this task left (killed inside a replay window) is dropped
        // at the start; other tasks' probes are never touched.
        std::string ownLeftover = syncscope::task::ReplayedDdlJudge::probePrefixFor(options.name, "mysql-3306") + "_9";
        connectTo(downstreamRoot())->execute("CREATE DATABASE `" + ownLeftover + "`");
        std::string otherLeftover =
            syncscope::task::ReplayedDdlJudge::probePrefixFor("another-task", "mysql-3306") + "_1";
        connectTo(downstreamRoot())->execute("CREATE DATABASE IF NOT EXISTS `" + otherLeftover + "`");
        EngineProcess engine(files.task, files.source, logDir);
        QVERIFY2(engine.start(), engine.stderrText().c_str());
        QVERIFY2(waitFor([&] { return engine.stage() == "Running"; }, kStageTimeoutMs), engine.stderrText().c_str());
        QVERIFY2(readWholeFile(logFile).find("dropped the probe database `" + ownLeftover + "`") != std::string::npos,
                 readWholeFile(logFile).c_str());
        QVERIFY2(probeDatabases().find(otherLeftover) != std::string::npos, probeDatabases().c_str());
        std::string probesBefore = probeDatabases();

        Point beforeBurst = upstreamPoint();
        {
            auto up = connectTo(upstreamRoot());
            up->execute(std::string("USE ") + kDatabase);
            for (const std::string& statement : kHistory) {
                up->execute(statement);
            }
        }
        std::string upstream = fingerprint(upstreamRoot());
        QVERIFY2(occurrences(upstream, ": CREATE TABLE") == kEndTables.size(), upstream.c_str());
        QVERIFY2(waitFor([&] { return fingerprint(downstreamRoot()) == upstream; }, kCatchUpTimeoutMs),
                 ("first pass: downstream\n" + fingerprint(downstreamRoot()) + "upstream\n" + upstream + "\n" +
                  engine.status().dump(2))
                     .c_str());

        // Resume from before the burst: every DDL of it is replayed.
        size_t windowsEnded = occurrences(readWholeFile(logFile), "the replay window ended");
        std::string why;
        QVERIFY2(pauseAndResumeFrom(engine, beforeBurst, gtidMode, why), why.c_str());
        Point end = upstreamPoint();
        std::string endText = "(" + end.file + ", " + std::to_string(end.pos) + ")";
        // The window ends when the replay has passed the old global point; then it catches up.
        QVERIFY2(waitFor(
                     [&] {
                         return occurrences(readWholeFile(logFile), "the replay window ended") > windowsEnded &&
                                engine.status().value("syncer_binlog", std::string()) == endText;
                     },
                     kCatchUpTimeoutMs),
                 (engine.status().dump(2) + "\n" + readWholeFile(logDir + "/" + options.name + ".log")).c_str());
        std::string log = readWholeFile(logDir + "/" + options.name + ".log");
        json status = engine.status();
        QVERIFY2(status.value("stage", std::string()) == "Running", (status.dump(2) + "\n" + log).c_str());
        QVERIFY2(status["failed_event"].is_null(), status.dump(2).c_str());
        QCOMPARE(fingerprint(downstreamRoot()), upstream);
        for (size_t at = log.find("replayed DDL at"); at != std::string::npos;
             at = log.find("replayed DDL at", at + 1)) {
            qInfo("%s", log.substr(at, log.find('\n', at) - at).c_str());
        }
        // Every DDL of the burst was judged: passed over where applied before, run again where the
        // downstream lacked it (tables the burst created and renamed or dropped are made again), or held
        // open until a later DDL of the same table placed the downstream (CREATE TABLE t2 meets t2 with
        // the column and index added after it).
        size_t passedOver = occurrences(log, "was applied before");
        size_t ranAgain = occurrences(log, "applied replayed DDL");
        size_t heldOpen = occurrences(log, "held open");
        qInfo("replayed DDLs passed over: %zu, run again: %zu, held open: %zu", passedOver, ranAgain, heldOpen);
        size_t ddls = 0;
        for (const std::string& statement : kHistory) {
            ddls += statement.rfind("INSERT", 0) != 0 && statement.rfind("UPDATE", 0) != 0 &&
                    statement.rfind("DELETE", 0) != 0;
        }
        QCOMPARE(passedOver + ranAgain + heldOpen, ddls);
        QVERIFY2(passedOver >= 4, log.c_str());
        QVERIFY2(heldOpen >= 1, log.c_str());
        QVERIFY2(log.find("every replayed DDL was placed") != std::string::npos, log.c_str());
        // The judge's probe databases are gone once the window ends (any other task's are left alone).
        QVERIFY2(probeDatabases() == probesBefore,
                 ("before: " + probesBefore + "\nafter: " + probeDatabases() + "\n" + linesWith(log, "probe")).c_str());
        connectTo(downstreamRoot())->execute("DROP DATABASE `" + otherLeftover + "`");

        // A definition changed by hand inside the window: the replay stops and names both definitions.
        connectTo(downstreamRoot())->execute(std::string("ALTER TABLE ") + kDatabase + ".t2 MODIFY a BIGINT");
        QVERIFY2(pauseAndResumeFrom(engine, beforeBurst, gtidMode, why), why.c_str());
        QVERIFY2(waitFor([&] { return engine.stage() == "Error"; }, kCatchUpTimeoutMs),
                 (engine.status().dump(2) + "\n" + readWholeFile(logDir + "/" + options.name + ".log")).c_str());
        std::string error = engine.status().value("last_error", std::string());
        qInfo("%s", error.c_str());
        QVERIFY2(error.find("does not match the downstream") != std::string::npos, error.c_str());
        QVERIFY2(error.find("rddl.t2") != std::string::npos, error.c_str());
        QVERIFY2(error.find("bigint(20)") != std::string::npos, error.c_str());  // the downstream's
        QVERIFY2(error.find("`a` int(11)") != std::string::npos, error.c_str());
        QVERIFY2(error.find('\n') == std::string::npos, error.c_str());  // one line, for logs      // the history's
        QVERIFY2(error.find("CREATE TABLE `rddl`.`t2` (id INT") != std::string::npos, error.c_str());  // the DDL
        engine.terminate();
    }
};

QTEST_GUILESS_MAIN(ReplayedDdlTest)
#include "test_replayed_ddl.moc"
