// DDL upstream while a snapshot load runs. The load is held at a known moment by an uncommitted row in
// the target of the table copied last but one (one worker, chunks largest first: that table's rows are
// read, its INSERT waits for the row lock), so the DDL comes after the snapshot and before the end of
// the dump:
// - DDL on tables whose chunks are all copied (ALTER, DROP) waits for the load (the snapshot's open
//   transaction holds their metadata locks) and a CREATE TABLE of a new table does not; both are
//   replayed by the incremental phase onto the tables created from the snapshot's definitions: equal.
// - A table altered, truncated, dropped or renamed while its chunks are still to be copied cannot be
//   read by the snapshot any more (MariaDB 1412 / 1146): a clear error naming the table and saying to
//   start over, nothing of that table written.
// - Between two runs of an interrupted load: DDL on a table whose chunks are all copied is replayed
//   (the second run does not call its target different); a table with chunks on both sides of the DDL
//   is a clear error naming it.
// - An ALTER still running when the load starts (it ends while the snapshot's lock waits for it): the
//   target is created with the definition the snapshot reads, not the one seen before the lock.
#include <QtTest>

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "engine/source/upstream_connection.h"
#include "tests/integration/load/load_fixture.h"
#include "tests/support/test_env.h"

using syncscope::source::UpstreamConnection;

namespace {

constexpr int kChunkRows = 500;
constexpr int kFirstRows = 20000;  // 40 chunks, copied first
constexpr int kGoneRows = 400;     // one chunk, after those of first: its target is locked to hold the load
constexpr int kHeldRows = 100;     // one chunk, copied last
constexpr int kSlowRows = 600000;  // its ALTER ... ALGORITHM=COPY runs for seconds
constexpr double kLockWaitedMs = 50;
constexpr int kRunTimeoutMs = 120000;
constexpr int kHoldTimeoutMs = 60000;
constexpr int kCatchUpMs = 90000;
constexpr int kPollMs = 5;
const char* const kTask = "load-ddl";

UpstreamConnection connectAsRoot(const syncscope::test::ServerSettings& settings) {
    return UpstreamConnection(syncscope::test::engineSettings(settings));
}

const std::vector<std::string> kCreates = {
    "CREATE TABLE ddlsrc.first (id INT PRIMARY KEY, v VARCHAR(32), n INT)",
    "CREATE TABLE ddlsrc.gone (id INT PRIMARY KEY, v VARCHAR(32))",
    "CREATE TABLE ddlsrc.held (id INT PRIMARY KEY, v VARCHAR(32))",
};

// Upstream ddlsrc with its three tables; downstream the same schema, created as the load would (an
// identical target is used as it is), so that a row of gone's target can be held before the load.
void createSource(UpstreamConnection& up, UpstreamConnection& down) {
    for (UpstreamConnection* server : {&up, &down}) {
        server->execute("DROP DATABASE IF EXISTS ddlsrc");
    }
    down.execute("DROP DATABASE IF EXISTS dm_meta");
    for (UpstreamConnection* server : {&up, &down}) {
        server->execute("SET SESSION sql_log_bin = 0");
        server->execute("CREATE DATABASE ddlsrc");
        for (const std::string& create : kCreates) {
            server->execute(create);
        }
        server->execute("SET SESSION sql_log_bin = 1");
    }
    up.execute("USE ddlsrc");
    up.execute("INSERT INTO ddlsrc.first SELECT seq, CONCAT('f', seq), seq % 7 FROM seq_1_to_" +
               std::to_string(kFirstRows));
    up.execute("INSERT INTO ddlsrc.gone SELECT seq, CONCAT('g', seq) FROM seq_1_to_" + std::to_string(kGoneRows));
    up.execute("INSERT INTO ddlsrc.held SELECT seq, CONCAT('h', seq) FROM seq_1_to_" + std::to_string(kHeldRows));
    up.execute("ANALYZE TABLE ddlsrc.first, ddlsrc.gone, ddlsrc.held");  // the estimates order the chunks
}

syncscope::test::TaskFiles taskFiles(const QTemporaryDir& dir, const std::string& mode) {
    syncscope::test::TaskFileOptions options;
    options.name = kTask;
    options.taskMode = mode;
    options.instanceExtra = "    block-allow-list: \"only-ddlsrc\"\n";
    options.topLevelExtra = "block-allow-list:\n  only-ddlsrc: {do-dbs: [\"ddlsrc\"]}\n";
    return syncscope::test::writeTaskFiles(dir.path().toStdString(), options);
}

// Chunks in the plan and chunks done; {0, 0} before the plan exists.
std::pair<int, int> chunksDone(UpstreamConnection& down) {
    try {
        auto row = down.query(std::string("SELECT COUNT(*), COALESCE(SUM(done), 0) FROM dm_meta.`") + kTask +
                              "_loader_checkpoint`")
                       .front();
        return {std::stoi(*row[0]), std::stoi(*row[1])};
    } catch (const std::exception&) {
        return {0, 0};
    }
}

int doneOf(UpstreamConnection& down, const std::string& table) {
    try {
        return std::stoi(down.queryValue(std::string("SELECT COALESCE(SUM(done), 0) FROM dm_meta.`") + kTask +
                                         "_loader_checkpoint` WHERE cp_table = '" + table + "'")
                             .value_or("0"));
    } catch (const std::exception&) {
        return 0;  // no plan yet
    }
}

std::string checksum(UpstreamConnection& server, const std::string& table) {
    try {
        return server.queryValue("SELECT COUNT(*) FROM " + table).value_or("?") + "/" +
               server.query("CHECKSUM TABLE " + table).front()[1].value_or("NULL");
    } catch (const std::exception& e) {
        return std::string("ERROR ") + e.what();
    }
}

std::string columns(UpstreamConnection& server, const std::string& table) {
    return server
        .queryValue(
            "SELECT GROUP_CONCAT(COLUMN_NAME, ' ', COLUMN_TYPE ORDER BY ORDINAL_POSITION) FROM "
            "information_schema.COLUMNS WHERE TABLE_SCHEMA = 'ddlsrc' AND TABLE_NAME = '" +
            table + "'")
        .value_or("none");
}

// Holds the load: gone's first row, uncommitted in the target, makes the worker's INSERT of it wait.
void hold(UpstreamConnection& lock) {
    lock.execute("BEGIN");
    lock.execute("INSERT INTO ddlsrc.gone VALUES (1, 'held by the test')");
}

void release(UpstreamConnection& lock) {
    lock.execute("ROLLBACK");
}

// The worker has read gone's rows and its INSERT waits on the row; held is not read yet.
bool waitUntilHeld(UpstreamConnection& down) {
    return syncscope::test::waitFor(
        [&] {
            // STATE 'Update' leaves out this query itself, whose text holds the same words.
            return down.queryValue(
                       "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE STATE = 'Update' AND "
                       "INFO LIKE '% INTO `ddlsrc`.`gone`%'") == std::optional<std::string>("1") &&
                   doneOf(down, "held") == 0;
        },
        kHoldTimeoutMs);
}

struct Finished {
    int exitCode = -1;
    QString errors;
};

Finished finish(QProcess& run) {
    Finished result;
    if (!run.waitForFinished(kRunTimeoutMs)) {
        run.kill();
        run.waitForFinished();
        result.errors = QStringLiteral("timed out: ");
    }
    result.exitCode = run.exitCode();
    result.errors += QString::fromUtf8(run.readAllStandardError());
    return result;
}

}  // namespace

class LoadDdlTest : public QObject {
    Q_OBJECT

private slots:
    void ddlOnCopiedTablesAndNewTablesIsReplayedOntoTheSnapshotDefinitions() {
        UpstreamConnection up = connectAsRoot(syncscope::test::upstreamRoot());
        UpstreamConnection down = connectAsRoot(syncscope::test::downstreamRoot());
        UpstreamConnection lock = connectAsRoot(syncscope::test::downstreamRoot());
        createSource(up, down);
        hold(lock);
        QTemporaryDir dir;
        QProcess run;
        syncscope::test::startRun(run, taskFiles(dir, "all"), dir.filePath(QStringLiteral("logs")), kChunkRows, 1);
        QVERIFY(run.waitForStarted());
        QVERIFY2(waitUntilHeld(down), run.readAllStandardError().right(3000).constData());

        // After the snapshot, before the end of the dump. The DDL on tables the load has read waits for
        // the load's snapshot transaction (metadata lock): it runs from a connection of its own.
        up.execute("CREATE TABLE ddlsrc.created (id INT PRIMARY KEY, v VARCHAR(32))");
        up.execute("INSERT INTO ddlsrc.created VALUES (1, 'new'), (2, 'rows')");
        up.execute("INSERT INTO ddlsrc.held VALUES (100001, 'after the snapshot')");
        std::atomic<bool> ddlFailed{false};
        std::jthread ddl([&ddlFailed] {
            try {
                UpstreamConnection other = connectAsRoot(syncscope::test::upstreamRoot());
                other.execute("ALTER TABLE ddlsrc.first ADD COLUMN extra INT DEFAULT 7 AFTER v, ALGORITHM=COPY");
                other.execute("UPDATE ddlsrc.first SET extra = id WHERE id <= 100");
                other.execute("ALTER TABLE ddlsrc.first MODIFY n BIGINT");
                other.execute("DROP TABLE ddlsrc.gone");
            } catch (const std::exception& e) {
                qWarning("DDL upstream failed: %s", e.what());
                ddlFailed = true;
            }
        });
        QVERIFY(syncscope::test::waitFor([&] {
            return up.queryValue(
                       "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE STATE = 'Waiting for "
                       "table metadata lock' AND INFO LIKE 'ALTER TABLE ddlsrc.first%'") ==
                   std::optional<std::string>("1");
        }));
        release(lock);
        ddl.join();
        QVERIFY(!ddlFailed);

        std::string expected =
            checksum(up, "ddlsrc.first") + ";" + checksum(up, "ddlsrc.held") + ";" + checksum(up, "ddlsrc.created");
        auto shown = [&] {
            return checksum(down, "ddlsrc.first") + ";" + checksum(down, "ddlsrc.held") + ";" +
                   checksum(down, "ddlsrc.created");
        };
        // The DROP of gone comes last: wait for it too, not only for equal checksums.
        auto goneDropped = [&] {
            return down.queryValue(
                       "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'ddlsrc' AND "
                       "TABLE_NAME = 'gone'") == std::optional<std::string>("0");
        };
        bool equal = syncscope::test::waitFor(
            [&] { return shown() == expected && goneDropped() && run.state() == QProcess::Running; }, kCatchUpMs);
        run.terminate();
        Finished ended = finish(run);
        QVERIFY2(equal, qPrintable(QString::fromStdString("downstream " + shown() + " != upstream " + expected + "\n") +
                                   ended.errors.right(3000)));
        QVERIFY2(ended.exitCode == 0, qPrintable(ended.errors.right(3000)));
        QVERIFY2(ended.errors.contains(QStringLiteral("table definitions read under the lock")),
                 qPrintable(ended.errors.right(3000)));
        QCOMPARE(columns(down, "first"), columns(up, "first"));
        QCOMPARE(down.queryValue("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'ddlsrc' AND "
                                 "TABLE_NAME = 'gone'"),
                 std::optional<std::string>("0"));
    }

    void ddlOnATableWithChunksLeftIsAClearError_data() {
        QTest::addColumn<QString>("ddl");
        QTest::addRow("ALTER that rebuilds") << "ALTER TABLE ddlsrc.held ADD COLUMN x INT, ALGORITHM=COPY";
        QTest::addRow("TRUNCATE") << "TRUNCATE TABLE ddlsrc.held";
        QTest::addRow("DROP") << "DROP TABLE ddlsrc.held";
        QTest::addRow("RENAME") << "RENAME TABLE ddlsrc.held TO ddlsrc.held_renamed";
    }

    void ddlOnATableWithChunksLeftIsAClearError() {
        QFETCH(QString, ddl);
        UpstreamConnection up = connectAsRoot(syncscope::test::upstreamRoot());
        UpstreamConnection down = connectAsRoot(syncscope::test::downstreamRoot());
        UpstreamConnection lock = connectAsRoot(syncscope::test::downstreamRoot());
        createSource(up, down);
        up.execute("DROP TABLE IF EXISTS ddlsrc.held_renamed");
        hold(lock);
        QTemporaryDir dir;
        QProcess run;
        syncscope::test::startRun(run, taskFiles(dir, "full"), dir.filePath(QStringLiteral("logs")), kChunkRows, 1);
        QVERIFY(run.waitForStarted());
        QVERIFY2(waitUntilHeld(down), run.readAllStandardError().right(3000).constData());
        up.execute(ddl.toStdString());
        release(lock);

        Finished ended = finish(run);
        QCOMPARE(ended.exitCode, 1);
        for (const char* expected : {"upstream table `ddlsrc`.`held` was changed by DDL",
                                     "after the load's snapshot at", "Start the load over", "--remove-meta"}) {
            QVERIFY2(ended.errors.contains(QLatin1String(expected)), qPrintable(ended.errors.right(3000)));
        }
        // Nothing of the held table was written; the committed chunks stay.
        QCOMPARE(down.queryValue("SELECT COUNT(*) FROM ddlsrc.held"), std::optional<std::string>("0"));
        QCOMPARE(doneOf(down, "held"), 0);
        auto [total, done] = chunksDone(down);
        QCOMPARE(done, total - 1);
        QCOMPARE(checksum(down, "ddlsrc.gone"), checksum(up, "ddlsrc.gone"));
        QCOMPARE(checksum(down, "ddlsrc.first"), checksum(up, "ddlsrc.first"));
    }

    void ddlBetweenTwoRunsOfAnInterruptedLoad() {
        UpstreamConnection up = connectAsRoot(syncscope::test::upstreamRoot());
        UpstreamConnection down = connectAsRoot(syncscope::test::downstreamRoot());
        UpstreamConnection lock = connectAsRoot(syncscope::test::downstreamRoot());
        createSource(up, down);
        hold(lock);
        QTemporaryDir dir;
        const syncscope::test::TaskFiles files = taskFiles(dir, "all");
        const QString logs = dir.filePath(QStringLiteral("logs"));
        QProcess first;
        syncscope::test::startRun(first, files, logs, kChunkRows, 1);
        QVERIFY(first.waitForStarted());
        QVERIFY2(waitUntilHeld(down), first.readAllStandardError().right(3000).constData());
        first.kill();  // SIGKILL while held: gone's and held's chunks never committed
        QVERIFY(first.waitForFinished());
        release(lock);

        // A table whose chunks are all copied changes: the next run copies the rest, the incremental
        // phase replays the ALTER onto the target made from the first snapshot's definition.
        up.execute("ALTER TABLE ddlsrc.first ADD COLUMN extra INT DEFAULT 7, ALGORITHM=COPY");
        QProcess second;
        syncscope::test::startRun(second, files, logs, kChunkRows, 1);
        QVERIFY(second.waitForStarted());
        std::string expected =
            checksum(up, "ddlsrc.first") + ";" + checksum(up, "ddlsrc.gone") + ";" + checksum(up, "ddlsrc.held");
        auto shown = [&] {
            return checksum(down, "ddlsrc.first") + ";" + checksum(down, "ddlsrc.gone") + ";" +
                   checksum(down, "ddlsrc.held");
        };
        bool equal = syncscope::test::waitFor(
            [&] { return shown() == expected && second.state() == QProcess::Running; }, kCatchUpMs);
        second.terminate();
        Finished ended = finish(second);
        QVERIFY2(equal, qPrintable(QString::fromStdString("downstream " + shown() + " != upstream " + expected + "\n") +
                                   ended.errors.right(3000)));
        QVERIFY2(ended.exitCode == 0, qPrintable(ended.errors.right(3000)));

        // A table with chunks copied on both sides of a DDL: a clear error, nothing more written.
        createSource(up, down);
        QProcess third;
        syncscope::test::startRun(third, files, logs, kChunkRows, 1);
        QVERIFY(third.waitForStarted());
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kRunTimeoutMs);
        while (doneOf(down, "first") < 3 && std::chrono::steady_clock::now() < deadline) {
            QVERIFY2(!third.waitForFinished(kPollMs), third.readAllStandardError().right(3000).constData());
        }
        third.kill();
        QVERIFY(third.waitForFinished());
        const int firstDone = doneOf(down, "first");
        QVERIFY2(firstDone > 0 && firstDone < kFirstRows / kChunkRows, qPrintable(QString::number(firstDone)));
        const std::string rowsBefore = down.queryValue("SELECT COUNT(*) FROM ddlsrc.first").value_or("?");
        up.execute("ALTER TABLE ddlsrc.first ADD COLUMN extra INT DEFAULT 7, ALGORITHM=COPY");
        QProcess fourth;
        syncscope::test::startRun(fourth, files, logs, kChunkRows, 1);
        Finished refused = finish(fourth);
        QCOMPARE(refused.exitCode, 1);
        for (const char* expectedText :
             {"upstream table `ddlsrc`.`first` was changed by DDL since the load copied its first chunks",
              "column `extra` (int(11)) is missing downstream", "Start the load over", "--remove-meta"}) {
            QVERIFY2(refused.errors.contains(QLatin1String(expectedText)), qPrintable(refused.errors.right(3000)));
        }
        QCOMPARE(doneOf(down, "first"), firstDone);
        QCOMPARE(down.queryValue("SELECT COUNT(*) FROM ddlsrc.first").value_or("?"), rowsBefore);
    }

    void alterRunningAsTheLoadStartsIsInTheTargetDefinition() {
        UpstreamConnection up = connectAsRoot(syncscope::test::upstreamRoot());
        UpstreamConnection down = connectAsRoot(syncscope::test::downstreamRoot());
        createSource(up, down);
        down.execute("DROP DATABASE ddlsrc");  // the load creates every target
        up.execute("CREATE TABLE ddlsrc.slow (id INT PRIMARY KEY, v VARCHAR(32))");
        up.execute("INSERT INTO ddlsrc.slow SELECT seq, CONCAT('s', seq) FROM seq_1_to_" + std::to_string(kSlowRows));
        std::atomic<bool> ddlFailed{false};
        std::jthread ddl([&ddlFailed] {
            try {
                UpstreamConnection other = connectAsRoot(syncscope::test::upstreamRoot());
                other.execute("ALTER TABLE ddlsrc.slow ADD COLUMN z INT DEFAULT 9, ALGORITHM=COPY");
            } catch (const std::exception& e) {
                qWarning("ALTER upstream failed: %s", e.what());
                ddlFailed = true;
            }
        });
        QVERIFY(syncscope::test::waitFor([&] {
            return up.queryValue(
                       "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE 'ALTER TABLE "
                       "ddlsrc.slow%' AND STATE LIKE 'copy to tmp table%'") == std::optional<std::string>("1");
        }));
        QTemporaryDir dir;
        QProcess run;
        syncscope::test::startRun(run, taskFiles(dir, "full"), dir.filePath(QStringLiteral("logs")), kChunkRows * 20,
                                  2);
        Finished ended = finish(run);
        ddl.join();
        QVERIFY(!ddlFailed);
        QVERIFY2(ended.exitCode == 0, qPrintable(ended.errors.right(3000)));
        // The snapshot's lock waited for the ALTER: the definitions seen before it were the old ones.
        QRegularExpression lockTaken(QStringLiteral("lock taken in ([0-9.]+) ms"));
        QRegularExpressionMatch match = lockTaken.match(ended.errors);
        QVERIFY2(match.hasMatch(), qPrintable(ended.errors.right(3000)));
        if (match.captured(1).toDouble() < kLockWaitedMs) {
            QSKIP("the ALTER ended before the load's snapshot lock was requested: nothing to prove this time");
        }
        QCOMPARE(columns(down, "slow"), columns(up, "slow"));
        QCOMPARE(checksum(down, "ddlsrc.slow"), checksum(up, "ddlsrc.slow"));
    }
};

QTEST_GUILESS_MAIN(LoadDdlTest)
#include "test_load_ddl.moc"
