// Bad input the verifier must report, never pass silently: a server lost in the middle of a verify
// (its connection killed between two chunks) fails the table it was on and every table after it on
// that connection (one table at a time here), each naming the side and the server's error; a table named with --table
// that the upstream lacks is an error (exit 2) rather than an empty, "equal" verify.
#include <QtTest>

#include <QTemporaryDir>

#include "engine/verify/task_verifier.h"
#include "engine/verify/value_chunk_pipeline.h"
#include "tests/integration/outage/engine_process.h"
#include "tests/integration/outage/outage_helpers.h"
#include "tests/support/task_files.h"

using namespace syncscope;
using namespace syncscope::test;

namespace {
constexpr int kCliTimeoutMs = 60000;
constexpr int kExitError = 2;
constexpr size_t kSmallChunkRows = 200;
}  // namespace

class VerifyLostConnectionTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        auto up = connectTo(upstreamRoot());
        auto down = connectTo(downstreamRoot());
        for (auto* side : {up.get(), down.get()}) {
            side->execute("SET SESSION sql_log_bin = 0");
            side->execute("DROP DATABASE IF EXISTS verify_lost");
            side->execute("CREATE DATABASE verify_lost");
            for (const char* table : {"a", "b"}) {
                side->execute(std::string("CREATE TABLE verify_lost.") + table +
                              " (id INT PRIMARY KEY, v VARCHAR(20))");
                side->execute(std::string("INSERT INTO verify_lost.") + table +
                              " SELECT seq, CONCAT('v', seq) FROM verify_lost.seq_1_to_2000");
            }
        }
    }

    void serverLostMidVerifyFailsTheRestWithTheReason_data() {
        QTest::addColumn<bool>("killUpstream");
        QTest::addRow("downstream connection killed after the first chunk") << false;
        QTest::addRow("upstream connection killed after the first chunk") << true;
    }

    void serverLostMidVerifyFailsTheRestWithTheReason() {
        QFETCH(bool, killUpstream);
        auto filter =
            std::make_shared<filter::BlockAllowList>(filter::BlockAllowRules{{"verify_lost"}, {}, {}, {}}, false);
        verify::VerifySettings settings;
        settings.firstChunkRows = settings.minChunkRows = settings.maxChunkRows = kSmallChunkRows;
        settings.maxValueChunkRows = kSmallChunkRows;  // so that chunks are left after the one in flight
        settings.parallelTables = 1;                   // both tables on the connection killed
        verify::NoRunningTask noTask;
        verify::VerifyTarget target;
        target.upstream = engineSettings(upstreamRoot());
        target.downstream = engineSettings(downstreamRoot());
        target.blockAllow = filter;
        verify::TaskVerifier verifier(target, settings, noTask);
        bool killed = false;
        verifier.setProgressHandler([&](size_t, size_t, const verify::TableVerifyResult& result) {
            if (killed || result.chunksDone != 1) {
                return;
            }
            // Between two chunks (this handler runs on the verifier's thread, while the next chunk is read
            // on the session's own: the id was read when it connected): kill its session.
            verify::ServerSession* session = killUpstream ? verifier.upstreamSession() : verifier.downstreamSession();
            const std::string id = session->connectionId();
            connectTo(killUpstream ? upstreamRoot() : downstreamRoot())->execute("KILL CONNECTION " + id);
            killed = true;
        });
        verify::VerifyReport report = verifier.run();
        QVERIFY(killed);
        QCOMPARE(report.tables.size(), size_t(2));
        for (const auto& table : report.tables) {
            QCOMPARE(table.outcome, verify::TableOutcome::Failed);
            QVERIFY2(table.problem.find(killUpstream ? "upstream" : "downstream") != std::string::npos,
                     table.problem.c_str());
        }
        // The chunks already in flight when the connection was killed may have been read in full.
        QVERIFY2(report.tables.front().chunksDone >= 1 &&
                     report.tables.front().chunksDone <= 1 + verify::ValueChunkPipeline::kChunksInFlight,
                 std::to_string(report.tables.front().chunksDone).c_str());
        QCOMPARE(report.failedTables(), size_t(2));
    }

    void tableNamedButMissingUpstreamIsAnError() {
        QTemporaryDir dir;
        TaskFileOptions options;
        options.name = "verify_lost_named";
        options.binlogName = "mariadb-bin.000001";
        options.instanceExtra = "    block-allow-list: \"only\"\n";
        options.topLevelExtra = "block-allow-list:\n  only: {do-dbs: [\"verify_lost\"]}\n";
        TaskFiles files = writeTaskFiles(dir.path().toStdString(), options);
        CliResult run =
            runCli({"verify", QString::fromStdString(files.task), "--source", QString::fromStdString(files.source),
                    "--table", "verify_lost.nonexistent", "--log-dir", dir.filePath("logs")},
                   kCliTimeoutMs);
        const QString text = QString::fromStdString(run.out + run.err);
        QVERIFY2(run.exitCode == kExitError, qPrintable(text));
        QVERIFY2(text.contains("verify_lost.nonexistent: failed") && text.contains("does not exist"), qPrintable(text));
    }

    void cleanupTestCase() {
        auto up = connectTo(upstreamRoot());
        auto down = connectTo(downstreamRoot());
        for (auto* side : {up.get(), down.get()}) {
            side->execute("SET SESSION sql_log_bin = 0");
            side->execute("DROP DATABASE IF EXISTS verify_lost");
        }
    }
};

QTEST_GUILESS_MAIN(VerifyLostConnectionTest)
#include "test_verify_lost_connection.moc"
