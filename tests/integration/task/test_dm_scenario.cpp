// The DM bug scenario (pingcap/tiflow 5279, 12626), in position mode and in GTID mode: a row that fails
// downstream after a filtered DDL must never be covered by a persisted checkpoint, must fail again on
// every restart, and must land once the downstream is fixed.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <chrono>
#include <thread>

#include "engine/common/server_settings.h"
#include "engine/source/upstream_connection.h"
#include "tests/support/task_files.h"
#include "tests/support/test_env.h"

using syncscope::source::UpstreamConnection;

namespace {

constexpr int kRunTimeoutMs = 60000;

struct RunResult {
    int exitCode = -1;
    QString err;
};

class DmScenarioTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    QTemporaryDir dir_;
    QString taskFile_;
    QString sourceFile_;
    QString taskName_;

    void writeFiles(bool gtidMode, const std::string& binlogName, uint64_t binlogPos, const std::string& gtid) {
        taskName_ = gtidMode ? QStringLiteral("foo-task-gtid") : QStringLiteral("foo-task-pos");
        // The task of the DM bug report, pointed at the private pair.
        syncscope::test::TaskFileOptions options;
        options.name = taskName_.toStdString();
        options.binlogName = binlogName;
        options.binlogPos = binlogPos;
        options.binlogGtid = gtid;
        options.gtidMode = gtidMode;
        options.instanceExtra =
            "    block-allow-list: \"ba-rule1\"\n"
            "    filter-rules: [\"filter-rule-1\"]\n";
        options.topLevelExtra =
            "block-allow-list:\n"
            "  ba-rule1: {do-dbs: [\"test\"]}\n"
            "filters:\n"
            "  filter-rule-1: {schema-pattern: \"test\", table-pattern: \"test1\", events: [\"all ddl\"], "
            "action: Ignore}\n";
        auto files = syncscope::test::writeTaskFiles(dir_.path().toStdString(), options);
        taskFile_ = QString::fromStdString(files.task);
        sourceFile_ = QString::fromStdString(files.source);
    }

    QStringList runArgs() const {
        return {QStringLiteral("run"),       taskFile_,
                QStringLiteral("--source"),  sourceFile_,
                QStringLiteral("--log-dir"), dir_.filePath(QStringLiteral("logs"))};
    }

    // Runs until the process exits by itself (an error that needs the DBA).
    RunResult runUntilExit() {
        QProcess process;
        process.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"), runArgs());
        if (!process.waitForFinished(kRunTimeoutMs)) {
            process.terminate();
            process.waitForFinished();
            return {-2, QString::fromUtf8(process.readAllStandardError())};
        }
        return {process.exitCode(), QString::fromUtf8(process.readAllStandardError())};
    }

    // The single value of a query; "ERROR: ..." when it fails (a table that does not exist yet).
    std::string value(UpstreamConnection& connection, const std::string& sql) {
        try {
            return connection.queryValue(sql).value_or("NULL");
        } catch (const std::exception& e) {
            return std::string("ERROR: ") + e.what();
        }
    }

    std::string checkpointTable() const { return "`dm_meta`.`" + taskName_.toStdString() + "_syncer_checkpoint`"; }

private slots:
    void init() {
        up_ = std::make_unique<UpstreamConnection>(syncscope::test::engineSettings(syncscope::test::upstreamRoot()));
        down_ =
            std::make_unique<UpstreamConnection>(syncscope::test::engineSettings(syncscope::test::downstreamRoot()));
        QVERIFY(dir_.isValid());
    }

    void failedRowIsNeverCoveredByACheckpointAndLandsAfterTheFix_data() {
        QTest::addColumn<bool>("gtidMode");
        QTest::addRow("position mode") << false;
        QTest::addRow("gtid mode") << true;
    }

    void failedRowIsNeverCoveredByACheckpointAndLandsAfterTheFix() {
        QFETCH(bool, gtidMode);
        // Both sides start with test.test1; the upstream's copy is created outside the binlog.
        for (UpstreamConnection* server : {up_.get(), down_.get()}) {
            server->execute("SET SESSION sql_log_bin = 0");
            server->execute("DROP DATABASE IF EXISTS test");
            server->execute("CREATE DATABASE test");
            server->execute("CREATE TABLE test.test1 (c INT PRIMARY KEY, c2 INT, c3 INT)");
            server->execute("SET SESSION sql_log_bin = 1");
        }
        auto master = up_->query("SHOW MASTER STATUS");
        QVERIFY(!master.empty());
        std::string file = *master.front()[0];
        uint64_t pos = std::stoull(*master.front()[1]);
        std::string gtid = value(*up_, "SELECT @@GLOBAL.gtid_binlog_pos");
        writeFiles(gtidMode, file, pos, gtid);
        down_->execute("DROP DATABASE IF EXISTS dm_meta");

        QProcess run;
        run.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"), runArgs());
        QVERIFY(run.waitForStarted());

        up_->execute("INSERT INTO test.test1 VALUES (1, 1, 1)");
        up_->execute("ALTER TABLE test.test1 ADD c4 INT");  // ignored by filter-rule-1
        up_->execute("CREATE TABLE test.test2 (id INT PRIMARY KEY, v VARCHAR(20))");
        up_->execute("INSERT INTO test.test2 VALUES (1, 'a'), (2, 'b')");
        QVERIFY2(syncscope::test::waitFor([&] { return value(*down_, "SELECT COUNT(*) FROM test.test2") == "2"; }),
                 run.readAllStandardError().constData());
        std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // more than one flush interval
        up_->execute("INSERT INTO test.test1 VALUES (2, 2, 2, 2)");
        master = up_->query("SHOW MASTER STATUS");
        uint64_t afterFailing = std::stoull(*master.front()[1]);
        std::string failingGtid = value(*up_, "SELECT @@GLOBAL.gtid_binlog_pos");

        QVERIFY2(run.waitForFinished(kRunTimeoutMs), "run did not stop on the failing row");
        QString err = QString::fromUtf8(run.readAllStandardError());
        QCOMPARE(run.exitCode(), 1);
        QVERIFY2(err.contains(QStringLiteral("1054")), qPrintable(err));
        QVERIFY2(err.contains(QStringLiteral("c4")), qPrintable(err));
        // The hint names the statement that would add the column.
        QVERIFY2(err.contains(QStringLiteral("ALTER TABLE `test`.`test1` ADD COLUMN `c4` INT ")), qPrintable(err));
        qInfo().noquote() << "run stopped with:" << err.right(1200);

        // No persisted point (global or table, position or GTID) covers the failing row.
        auto checkNoPointCoversTheRow = [&] {
            auto rows = down_->query("SELECT cp_schema, cp_table, binlog_name, binlog_pos, binlog_gtid FROM " +
                                     checkpointTable() + " WHERE id = 'mysql-3306'");
            QVERIFY(!rows.empty());
            for (const auto& row : rows) {
                QCOMPARE(*row[2], file);
                QVERIFY2(std::stoull(*row[3]) < afterFailing,
                         ("point " + *row[0] + "." + *row[1] + " at " + *row[3] + " covers the failed row").c_str());
                if (gtidMode && row[4]) {
                    QVERIFY2(*row[4] != failingGtid, ("GTID point " + *row[4] + " covers the failed row").c_str());
                }
            }
        };
        checkNoPointCoversTheRow();

        // Every restart fails on the same row again.
        for (int attempt = 0; attempt < 2; ++attempt) {
            RunResult again = runUntilExit();
            QCOMPARE(again.exitCode, 1);
            QVERIFY2(again.err.contains(QStringLiteral("1054")), qPrintable(again.err));
            checkNoPointCoversTheRow();
        }
        QCOMPARE(value(*down_, "SELECT COUNT(*) FROM test.test1"), std::string("1"));

        // Fixed downstream: the row lands, both tables equal their upstream twins.
        down_->execute("ALTER TABLE test.test1 ADD c4 INT");
        QProcess fixedRun;
        fixedRun.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"), runArgs());
        QVERIFY(fixedRun.waitForStarted());
        bool landed = syncscope::test::waitFor([&] { return value(*down_, "SELECT COUNT(*) FROM test.test1") == "2"; });
        fixedRun.terminate();
        QVERIFY(fixedRun.waitForFinished(kRunTimeoutMs));
        QVERIFY2(landed, fixedRun.readAllStandardError().constData());
        QCOMPARE(fixedRun.exitCode(), 0);
        for (const char* table : {"test.test1", "test.test2"}) {
            std::string sql = std::string("CHECKSUM TABLE ") + table;
            QCOMPARE(*down_->query(sql).front()[1], *up_->query(sql).front()[1]);
        }
    }
};

}  // namespace

QTEST_GUILESS_MAIN(DmScenarioTest)
#include "test_dm_scenario.moc"
