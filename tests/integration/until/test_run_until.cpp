// `syncscope-cli run --until` on the private pair: the task applies up to the transaction that completes a
// GTID, pauses there, stops gracefully and the process exits 0 naming the stop point; the checkpoint is that
// transaction's end. A point that is no point is a usage error that starts nothing.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include "engine/source/upstream_connection.h"
#include "tests/support/task_files.h"
#include "tests/support/test_env.h"

using syncscope::source::UpstreamConnection;
using namespace syncscope;

namespace {

constexpr int kRunTimeoutMs = 60000;
constexpr int kUsageExitCode = 2;

struct RunResult {
    int exitCode = -1;
    QString err;
};

}  // namespace

class RunUntilTest : public QObject {
    Q_OBJECT

    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    QTemporaryDir dir_;
    test::TaskFiles files_;

    RunResult run(const QString& until) {
        QProcess process;
        process.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"),
                      {QStringLiteral("run"), QString::fromStdString(files_.task), QStringLiteral("--source"),
                       QString::fromStdString(files_.source), QStringLiteral("--log-dir"),
                       dir_.filePath(QStringLiteral("logs")), QStringLiteral("--until"), until});
        if (!process.waitForFinished(kRunTimeoutMs)) {
            process.terminate();
            process.waitForFinished();
            return {-2, QString::fromUtf8(process.readAllStandardError())};
        }
        return {process.exitCode(), QString::fromUtf8(process.readAllStandardError())};
    }

    std::string value(UpstreamConnection& connection, const std::string& sql) {
        try {
            return connection.queryValue(sql).value_or("NULL");
        } catch (const std::exception& e) {
            return std::string("ERROR: ") + e.what();
        }
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        up_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::upstreamRoot()));
        down_ = std::make_unique<UpstreamConnection>(test::engineSettings(test::downstreamRoot()));
        for (UpstreamConnection* server : {up_.get(), down_.get()}) {
            server->execute("SET SESSION sql_log_bin = 0");
            server->execute("DROP DATABASE IF EXISTS run_until");
            server->execute("CREATE DATABASE run_until");
            server->execute("CREATE TABLE run_until.a (id INT PRIMARY KEY)");
            server->execute("SET SESSION sql_log_bin = 1");
        }
        down_->execute("DROP TABLE IF EXISTS dm_meta.run_until_syncer_checkpoint");
        auto status = up_->query("SHOW MASTER STATUS");
        test::TaskFileOptions options;
        options.name = "run_until";
        options.binlogName = *status.front()[0];
        options.binlogPos = std::stoull(*status.front()[1]);
        options.binlogGtid = up_->queryValue("SELECT @@gtid_binlog_pos").value_or("");
        options.gtidMode = true;
        options.instanceExtra = "    block-allow-list: \"ba-rule1\"\n";
        options.topLevelExtra = "block-allow-list:\n  ba-rule1: {do-dbs: [\"run_until\"]}\n";
        files_ = test::writeTaskFiles(dir_.path().toStdString(), options);
    }

    void aPointThatIsNoPointStartsNothing() {
        RunResult result = run(QStringLiteral("soon"));
        QCOMPARE(result.exitCode, kUsageExitCode);
        QVERIFY2(result.err.contains("--until: stop point 'soon' is not FILE:POS"), qPrintable(result.err));
        QVERIFY2(value(*down_, "SELECT COUNT(*) FROM dm_meta.run_until_syncer_checkpoint").rfind("ERROR", 0) == 0,
                 "the checkpoint table was created");
    }

    void theTaskStopsAfterTheTransactionCompletingTheGtidAndExitsZero() {
        up_->execute("INSERT INTO run_until.a VALUES (1)");
        up_->execute("INSERT INTO run_until.a VALUES (2)");
        const std::string afterTwo = up_->queryValue("SELECT @@gtid_binlog_pos").value_or("");
        up_->execute("INSERT INTO run_until.a VALUES (3)");
        RunResult result = run(QString::fromStdString(afterTwo));
        QCOMPARE(result.exitCode, 0);
        QVERIFY2(result.err.contains(QString::fromStdString("reached the stop point GTID " + afterTwo)),
                 qPrintable(result.err));
        QCOMPARE(value(*down_, "SELECT COUNT(*) FROM run_until.a"), std::string("2"));
        QCOMPARE(value(*down_, "SELECT binlog_gtid FROM dm_meta.run_until_syncer_checkpoint WHERE is_global = 1"),
                 afterTwo);
    }

    void cleanupTestCase() {
        for (UpstreamConnection* server : {up_.get(), down_.get()}) {
            server->execute("SET SESSION sql_log_bin = 0");
            server->execute("DROP DATABASE IF EXISTS run_until");
            server->execute("SET SESSION sql_log_bin = 1");
        }
    }
};

QTEST_GUILESS_MAIN(RunUntilTest)
#include "test_run_until.moc"
