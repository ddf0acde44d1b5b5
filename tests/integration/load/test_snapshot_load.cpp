// task-mode full end to end through `syncscope-cli run`: the filtered, routed tables are created
// downstream and loaded in key-range chunks by several workers (integer key, composite text key, no key;
// generated columns computed again downstream), equal to the upstream by CHECKSUM TABLE; a second run
// loads nothing twice. And the errors a DBA must be able to act on: a downstream table that differs
// (the columns named), a missing privilege (the GRANT named), a snapshot point purged before the
// switch to incremental (start over).
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "engine/source/upstream_connection.h"
#include "tests/integration/load/load_fixture.h"
#include "tests/support/test_env.h"

using syncscope::source::UpstreamConnection;

namespace {

constexpr int kRows = 3000;
constexpr int kChunkRows = 400;  // several chunks per keyed table
constexpr int kThreads = 3;
constexpr int kRunTimeoutMs = 120000;
constexpr int kPurgeWaitSeconds = 30;
constexpr int kPurgePollMs = 100;

UpstreamConnection upstreamRoot() {
    return UpstreamConnection(syncscope::test::engineSettings(syncscope::test::upstreamRoot()));
}
UpstreamConnection downstreamRoot() {
    return UpstreamConnection(syncscope::test::engineSettings(syncscope::test::downstreamRoot()));
}

struct RunResult {
    int exitCode = -1;
    QString errors;
};

RunResult runToEnd(const syncscope::test::TaskFiles& files, const QString& logDir, const QString& loadMethod = {},
                   int chunkRows = kChunkRows) {
    QProcess run;
    syncscope::test::startRun(run, files, logDir, chunkRows, kThreads, loadMethod);
    RunResult result;
    if (!run.waitForFinished(kRunTimeoutMs)) {
        run.kill();
        run.waitForFinished();
        result.errors = QStringLiteral("timed out: ") + QString::fromUtf8(run.readAllStandardError().right(3000));
        return result;
    }
    result.exitCode = run.exitCode();
    result.errors = QString::fromUtf8(run.readAllStandardError());
    return result;
}

// The files of a `task-mode: full` task named `name` (load_fixture's filters and routes) in `dir`.
syncscope::test::TaskFiles fullLoadTask(const QTemporaryDir& dir, const std::string& name) {
    return syncscope::test::writeTaskFiles(dir.path().toStdString(), syncscope::test::loadTaskOptions(name, "full"));
}

}  // namespace

class SnapshotLoadTest : public QObject {
    Q_OBJECT

private slots:
    void fullLoadEqualsUpstreamThroughFiltersAndRoutes_data() {
        QTest::addColumn<QString>("loadMethod");
        QTest::addRow("prepared_bulk_inserts_the_default") << QString();
        QTest::addRow("multi_row_inserts") << QStringLiteral("insert");
        QTest::addRow("load_data_local_infile") << QStringLiteral("load-data");
    }

    void fullLoadEqualsUpstreamThroughFiltersAndRoutes() {
        QFETCH(QString, loadMethod);
        UpstreamConnection up = upstreamRoot();
        UpstreamConnection down = downstreamRoot();
        syncscope::test::createLoadSource(up, down, kRows);
        QTemporaryDir dir;
        auto files = fullLoadTask(dir, "load-full");
        RunResult first = runToEnd(files, dir.filePath(QStringLiteral("logs")), loadMethod);
        QVERIFY2(first.exitCode == 0, qPrintable(first.errors.right(3000)));
        QVERIFY2(first.errors.contains(QStringLiteral("full load finished: 3 tables")), qPrintable(first.errors));

        std::string upstream = syncscope::test::tableChecksums(up, true);
        QCOMPARE(syncscope::test::tableChecksums(down, false), upstream);
        // The filter left loadsrc.ignored out; the routes left nothing under the upstream schema's name.
        QCOMPARE(down.queryValue("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA IN "
                                 "('loadsrc') OR TABLE_NAME = 'ignored'"),
                 std::optional<std::string>("0"));
        // Generated columns were computed downstream, not copied.
        QCOMPARE(down.queryValue("SELECT COUNT(*) FROM loaddst.items_copy WHERE doubled <> id * 2 OR stored_name <> "
                                 "CONCAT('n:', name)"),
                 std::optional<std::string>("0"));
        // Several chunks per keyed table, one for the table without a key, every one done, in DM's columns.
        auto chunks = down.query(
            "SELECT cp_table, COUNT(*), SUM(done), SUM(rows_done), SUM(`offset` = end_pos) FROM "
            "dm_meta.`load-full_loader_checkpoint` WHERE id = 'mysql-3306' GROUP BY cp_table ORDER BY cp_table");
        QCOMPARE(chunks.size(), size_t{3});
        for (const auto& row : chunks) {
            int count = std::stoi(*row[1]);
            QCOMPARE(*row[2], *row[1]);
            QCOMPARE(*row[4], *row[1]);
            if (*row[0] == "nokey") {
                QCOMPARE(count, 1);
            } else {
                QVERIFY2(count >= kRows / kChunkRows, (*row[0] + " has " + *row[1] + " chunks").c_str());
            }
        }

        // A second run finds every chunk done and copies nothing again.
        RunResult second = runToEnd(files, dir.filePath(QStringLiteral("logs")));
        QVERIFY2(second.exitCode == 0, qPrintable(second.errors.right(3000)));
        QCOMPARE(syncscope::test::tableChecksums(down, false), upstream);
    }

    // A text key's chunks are found by walking the key while the other tables are copied; until the walk
    // has saved them, the plan holds the table as one pending chunk. A run that ends there (SIGKILL, a
    // pause) leaves that chunk: the next run walks the key then and copies the walked chunks.
    void aWholeTableChunkLeftPendingIsWalkedOnTheNextRun() {
        UpstreamConnection up = upstreamRoot();
        UpstreamConnection down = downstreamRoot();
        syncscope::test::createLoadSource(up, down, kRows);
        QTemporaryDir dir;
        auto files = fullLoadTask(dir, "load-walk");
        const std::string checkpoint = "dm_meta.`load-walk_loader_checkpoint`";
        // Chunks larger than any table: one chunk each, nothing walked.
        RunResult whole = runToEnd(files, dir.filePath(QStringLiteral("logs")), {}, kRows * 10);
        QVERIFY2(whole.exitCode == 0, qPrintable(whole.errors.right(3000)));
        QVERIFY2(!whole.errors.contains(QStringLiteral("by walking its key")), qPrintable(whole.errors));
        QCOMPARE(down.queryValue("SELECT COUNT(*) FROM " + checkpoint), std::optional<std::string>("3"));

        // The state a run stopped during the walk of loadsrc.pairs leaves: its whole-table chunk pending, none
        // of its rows downstream.
        down.execute("DELETE FROM loaddst.pairs");
        down.execute("UPDATE " + checkpoint +
                     " SET done = 0, `offset` = 0, rows_done = 0, loaded_binlog_name = '', loaded_binlog_pos = 0, "
                     "loaded_binlog_gtid = NULL WHERE cp_table = 'pairs'");

        RunResult walked = runToEnd(files, dir.filePath(QStringLiteral("logs")));
        QVERIFY2(walked.exitCode == 0, qPrintable(walked.errors.right(3000)));
        QVERIFY2(walked.errors.contains(QStringLiteral("`loadsrc`.`pairs` planned in ")) &&
                     walked.errors.contains(QStringLiteral("chunks by walking its key")),
                 qPrintable(walked.errors.right(3000)));
        QCOMPARE(syncscope::test::tableChecksums(down, false), syncscope::test::tableChecksums(up, true));
        // The walked chunks replaced the whole-table chunk (the first under its name), every one done and
        // bounded; the other tables kept their one chunk.
        auto pairs = down.query(
            "SELECT COUNT(*), SUM(done), SUM(rows_done), SUM(lower_bound = 'null'), "
            "SUM(upper_bound = 'null'), MIN(filename) FROM " +
            checkpoint + " WHERE cp_table = 'pairs'");
        QVERIFY2(std::stoi(*pairs.front()[0]) >= kRows / kChunkRows, pairs.front()[0]->c_str());
        QCOMPARE(*pairs.front()[1], *pairs.front()[0]);
        QCOMPARE(*pairs.front()[2], std::to_string(kRows));
        QCOMPARE(*pairs.front()[3], std::string("1"));
        QCOMPARE(*pairs.front()[4], std::string("1"));
        QCOMPARE(*pairs.front()[5], std::string("loadsrc.pairs.00000"));
        QCOMPARE(down.queryValue("SELECT COUNT(*) FROM " + checkpoint + " WHERE cp_table <> 'pairs'"),
                 std::optional<std::string>("2"));
    }

    void viewsTriggersRoutinesAndEventsAreNamedNotCopied() {
        UpstreamConnection up = upstreamRoot();
        UpstreamConnection down = downstreamRoot();
        syncscope::test::createLoadSource(up, down, kRows / 10);
        up.execute("CREATE VIEW loadsrc.v_items AS SELECT id, name FROM loadsrc.items");
        up.execute(
            "CREATE TRIGGER loadsrc.trg_nokey BEFORE INSERT ON loadsrc.nokey FOR EACH ROW SET NEW.a = NEW.a + 1");
        up.execute("CREATE PROCEDURE loadsrc.p_count() SELECT COUNT(*) FROM loadsrc.items");
        up.execute("CREATE EVENT loadsrc.e_tick ON SCHEDULE EVERY 1 DAY DISABLE DO DELETE FROM loadsrc.nokey");
        QTemporaryDir dir;
        auto files = fullLoadTask(dir, "load-objects");
        RunResult run = runToEnd(files, dir.filePath(QStringLiteral("logs")));
        QVERIFY2(run.exitCode == 0, qPrintable(run.errors.right(3000)));
        QVERIFY2(run.errors.contains(QStringLiteral(
                     "the load copies tables only, not EVENT `loadsrc`.`e_tick`, PROCEDURE `loadsrc`.`p_count`, VIEW "
                     "`loadsrc`.`v_items`, triggers the upstream user cannot see")),
                 qPrintable(run.errors.right(3000)));
        QCOMPARE(syncscope::test::tableChecksums(down, false), syncscope::test::tableChecksums(up, true));
        QCOMPARE(
            down.queryValue("SELECT (SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'loaddst' "
                            "AND TABLE_TYPE <> 'BASE TABLE') + (SELECT COUNT(*) FROM information_schema.TRIGGERS "
                            "WHERE TRIGGER_SCHEMA = 'loaddst') + (SELECT COUNT(*) FROM information_schema.ROUTINES "
                            "WHERE ROUTINE_SCHEMA = 'loaddst') + (SELECT COUNT(*) FROM information_schema.EVENTS "
                            "WHERE EVENT_SCHEMA = 'loaddst')"),
            std::optional<std::string>("0"));
    }

    void differingDownstreamTableNamesTheColumns() {
        UpstreamConnection up = upstreamRoot();
        UpstreamConnection down = downstreamRoot();
        syncscope::test::createLoadSource(up, down, kRows / 10);
        down.execute("CREATE DATABASE loaddst");
        down.execute(
            "CREATE TABLE loaddst.pairs (region VARCHAR(16) NOT NULL, n INT NOT NULL, v FLOAT, "
            "extra INT, PRIMARY KEY (region, n))");
        QTemporaryDir dir;
        auto files = fullLoadTask(dir, "load-differs");
        RunResult run = runToEnd(files, dir.filePath(QStringLiteral("logs")));
        QCOMPARE(run.exitCode, 1);
        for (const char* expected :
             {"`loaddst`.`pairs` exists and differs from upstream `loadsrc`.`pairs`",
              "column `v` is double upstream and float downstream", "column `b` (varbinary(8)) is missing downstream",
              "column `extra` (int(11)) exists only downstream"}) {
            QVERIFY2(run.errors.contains(QString::fromUtf8(expected)), qPrintable(run.errors.right(3000)));
        }
        // No row was written into the differing table.
        QCOMPARE(down.queryValue("SELECT COUNT(*) FROM loaddst.pairs"), std::optional<std::string>("0"));
    }

    void missingPrivilegeNamesWhatAndWhere_data() {
        QTest::addColumn<QStringList>("grants");
        QTest::addColumn<QStringList>("expected");
        const QString base = QStringLiteral("REPLICATION SLAVE, BINLOG MONITOR");
        QTest::addRow("no_reload_for_the_snapshot_lock")
            << QStringList{QStringLiteral("SELECT, %1 ON *.*").arg(base)}
            << QStringList{QStringLiteral("lacks RELOAD on *.*"), QStringLiteral("FLUSH TABLES WITH READ LOCK"),
                           QStringLiteral("GRANT RELOAD ON *.* TO 'load_user'")};
        QTest::addRow("select_on_some_tables_only")
            << QStringList{QStringLiteral("RELOAD, %1 ON *.*").arg(base), QStringLiteral("SELECT ON loadsrc.items"),
                           QStringLiteral("SELECT ON loadsrc.nokey")}
            << QStringList{QStringLiteral("lacks SELECT on `loadsrc`.*"),
                           QStringLiteral("may read only loadsrc.items, loadsrc.nokey"),
                           QStringLiteral("GRANT SELECT ON `loadsrc`.* TO 'load_user'")};
        QTest::addRow("no_select_at_all")
            << QStringList{QStringLiteral("RELOAD, %1 ON *.*").arg(base)}
            << QStringList{QStringLiteral("sees no table that the block-allow list selects"),
                           QStringLiteral("GRANT SELECT ON <schema>.* TO 'load_user'")};
        QTest::addRow("select_on_the_schema_is_enough")
            << QStringList{QStringLiteral("RELOAD, %1 ON *.*").arg(base), QStringLiteral("SELECT ON loadsrc.*")}
            << QStringList{};
    }

    void missingPrivilegeNamesWhatAndWhere() {
        QFETCH(QStringList, grants);
        QFETCH(QStringList, expected);
        UpstreamConnection up = upstreamRoot();
        UpstreamConnection down = downstreamRoot();
        syncscope::test::createLoadSource(up, down, kRows / 10);
        up.execute("DROP USER IF EXISTS 'load_user'@'127.0.0.1'");
        up.execute("CREATE USER 'load_user'@'127.0.0.1' IDENTIFIED BY 'load-user-pw'");
        for (const QString& grant : grants) {
            up.execute("GRANT " + grant.toStdString() + " TO 'load_user'@'127.0.0.1'");
        }
        QTemporaryDir dir;
        auto files = fullLoadTask(dir, "load-grants");
        std::ifstream in(files.source);
        std::stringstream text;
        text << in.rdbuf();
        std::string source = text.str();
        auto replace = [&](const std::string& from, const std::string& to) {
            source.replace(source.find(from), from.size(), to);
        };
        replace("user: \"" + syncscope::test::upstreamReplication().user + "\"", "user: \"load_user\"");
        replace("password: \"" + syncscope::test::upstreamReplication().password + "\"", "password: \"load-user-pw\"");
        std::ofstream(files.source) << source;

        RunResult run = runToEnd(files, dir.filePath(QStringLiteral("logs")));
        up.execute("DROP USER 'load_user'@'127.0.0.1'");
        if (expected.isEmpty()) {
            QVERIFY2(run.exitCode == 0, qPrintable(run.errors.right(3000)));
            QCOMPARE(syncscope::test::tableChecksums(down, false), syncscope::test::tableChecksums(up, true));
            return;
        }
        QCOMPARE(run.exitCode, 1);
        for (const QString& part : expected) {
            QVERIFY2(run.errors.contains(part),
                     qPrintable(part + QStringLiteral(" not in: ") + run.errors.right(3000)));
        }
        // Nothing was written downstream before the check: no target schema, no plan.
        QCOMPARE(down.queryValue("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'loaddst'"),
                 std::optional<std::string>("0"));
        QCOMPARE(down.queryValue("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'dm_meta' AND "
                                 "TABLE_NAME = 'load-grants_loader_checkpoint'"),
                 std::optional<std::string>("0"));
    }

    void purgedSnapshotPointSaysStartOver() {
        UpstreamConnection up = upstreamRoot();
        UpstreamConnection down = downstreamRoot();
        syncscope::test::createLoadSource(up, down, kRows / 10);
        QTemporaryDir dir;
        auto options = syncscope::test::loadTaskOptions("load-purged", "full");
        auto files = syncscope::test::writeTaskFiles(dir.path().toStdString(), options);
        RunResult full = runToEnd(files, dir.filePath(QStringLiteral("logs")));
        QVERIFY2(full.exitCode == 0, qPrintable(full.errors.right(3000)));

        // The snapshot's binlog file is purged before the task switches to incremental.
        up.execute("FLUSH BINARY LOGS");
        std::string newest = *up.query("SHOW MASTER STATUS").front()[0];
        // MariaDB keeps a file until its binlog checkpoint has moved past it (written in the background after
        // the rotation) and only warns when PURGE cannot remove it yet: purge again until it is gone.
        auto purgeDeadline = std::chrono::steady_clock::now() + std::chrono::seconds(kPurgeWaitSeconds);
        auto oldest = [&] { return *up.query("SHOW BINARY LOGS").front()[0]; };
        up.execute("PURGE BINARY LOGS TO '" + newest + "'");
        while (oldest() != newest && std::chrono::steady_clock::now() < purgeDeadline) {
            std::this_thread::sleep_for(std::chrono::milliseconds(kPurgePollMs));
            up.execute("PURGE BINARY LOGS TO '" + newest + "'");
        }
        QCOMPARE(oldest(), newest);
        options.taskMode = "all";
        syncscope::test::writeTaskFiles(dir.path().toStdString(), options);
        RunResult all = runToEnd(files, dir.filePath(QStringLiteral("logs")));
        QVERIFY2(all.exitCode == 1, qPrintable(all.errors.right(3000)));
        QVERIFY2(all.errors.contains(QStringLiteral("no longer has (purged")), qPrintable(all.errors.right(3000)));
        QVERIFY2(all.errors.contains(QStringLiteral("Start over")), qPrintable(all.errors.right(3000)));
        // No syncer checkpoint was written: nothing would silently start past the gap.
        QCOMPARE(down.queryValue("SELECT COUNT(*) FROM dm_meta.`load-purged_syncer_checkpoint`"),
                 std::optional<std::string>("0"));
    }
};

QTEST_GUILESS_MAIN(SnapshotLoadTest)
#include "test_snapshot_load.moc"
