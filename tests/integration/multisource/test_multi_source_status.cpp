// `syncscope-cli status` and `checkpoints TASK.yaml --source A --source B` for a task with two sources (both on
// the test pair's upstream, each replicating its own database), after a real run left each source its own
// checkpoint rows. Proves: before any run the missing checkpoint table is named (exit 1); a line for the whole task,
// then one section per source, in text and JSON; an anomaly in one source's rows is counted in that source's section
// and in the whole task's line only; an unreachable upstream of one source fails the command (exit 1) while both
// sections are still shown; rows of a source id the task has no file for are named; bad usage is refused.
#include <QtTest>

#include <QProcess>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

#include <filesystem>

#include "engine/source/upstream_connection.h"
#include "tests/integration/multisource/multi_source_pair.h"
#include "tests/support/multi_source_files.h"
#include "tests/support/sql_values.h"
#include "tests/support/test_env.h"

using nlohmann::json;
using syncscope::source::UpstreamConnection;
using syncscope::test::valueOf;

namespace {

constexpr int kCliTimeoutMs = 60000;
constexpr int kRows = 300;
const char* const kTaskName = "mss_task";
const char* const kSourceA = "mss-a";
const char* const kSourceB = "mss-b";
const char* const kDatabaseA = "mss_a";
const char* const kDatabaseB = "mss_b";

struct CliResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};

class MultiSourceStatusTest : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<UpstreamConnection> up_;
    std::unique_ptr<UpstreamConnection> down_;
    QTemporaryDir dir_;
    std::string configDir_;
    std::string logDir_;
    std::string taskFile_;
    std::string sourceA_;
    std::string sourceB_;

    static CliResult cli(const QStringList& args) {
        QProcess process;
        process.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"), args);
        CliResult result;
        if (!process.waitForFinished(kCliTimeoutMs)) {
            process.kill();
            process.waitForFinished();
            result.exitCode = -2;
        } else {
            result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
        }
        result.out = process.readAllStandardOutput().toStdString();
        result.err = process.readAllStandardError().toStdString();
        return result;
    }

    QStringList taskArgs(const char* command, const std::string& sourceB) const {
        return {QString::fromUtf8(command),       QString::fromStdString(taskFile_), QStringLiteral("--source"),
                QString::fromStdString(sourceA_), QStringLiteral("--source"),        QString::fromStdString(sourceB)};
    }

    static json parsed(const CliResult& result) { return json::parse(result.out, nullptr, false); }

    std::string checkpointTable() const { return std::string("dm_meta.`") + kTaskName + "_syncer_checkpoint`"; }

    void insertRows(const std::string& database, int first) {
        std::string sql = "INSERT INTO " + database + ".t VALUES ";
        for (int i = 0; i < kRows; ++i) {
            sql += (i ? "," : "") + ("(" + std::to_string(first + i) + ", 'row')");
        }
        up_->execute(sql);
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        configDir_ = dir_.filePath(QStringLiteral("config")).toStdString();
        logDir_ = dir_.filePath(QStringLiteral("logs")).toStdString();
        std::filesystem::create_directories(configDir_ + "/unreachable");
        std::filesystem::create_directories(logDir_);
        syncscope::test::connectWithFreshDatabases(up_, down_, {kDatabaseA, kDatabaseB});
        down_->execute("DROP TABLE IF EXISTS " + checkpointTable());
        sourceA_ = syncscope::test::writeSourceFile(configDir_, kSourceA, syncscope::test::upstreamReplication());
        sourceB_ = syncscope::test::writeSourceFile(configDir_, kSourceB, syncscope::test::upstreamReplication());
        auto master = up_->query("SHOW MASTER STATUS");
        const std::string file = *master.front()[0];
        const uint64_t pos = std::stoull(*master.front()[1]);
        taskFile_ = syncscope::test::writeMultiSourceTaskFile(
            configDir_, kTaskName, syncscope::test::downstreamRoot(),
            {{kSourceA, kDatabaseA, file, pos}, {kSourceB, kDatabaseB, file, pos}});
    }

    void beforeAnyRunTheMissingTableIsNamed() {
        CliResult status = cli(taskArgs("status", sourceB_));
        QCOMPARE(status.exitCode, 1);
        QVERIFY2(status.err.find("no checkpoint table `dm_meta`.`mss_task_syncer_checkpoint`") != std::string::npos,
                 status.err.c_str());
    }

    void afterARunEachSourceHasItsOwnSection() {
        QProcess run;
        run.setStandardErrorFile(QString::fromStdString(logDir_ + "/run-stderr.txt"));
        run.start(QStringLiteral(SYNCSCOPE_BINARY_DIR "/bin/syncscope-cli"),
                  taskArgs("run", sourceB_) << QStringLiteral("--log-dir") << QString::fromStdString(logDir_));
        QVERIFY(run.waitForStarted());
        insertRows(kDatabaseA, 1);
        insertRows(kDatabaseB, 1);
        const bool applied = syncscope::test::waitFor([&] {
            return valueOf(*down_, std::string("SELECT COUNT(*) FROM ") + kDatabaseA + ".t") == std::to_string(kRows) &&
                   valueOf(*down_, std::string("SELECT COUNT(*) FROM ") + kDatabaseB + ".t") == std::to_string(kRows);
        });
        run.terminate();  // SIGTERM: both subtasks flush their checkpoints and stop
        QVERIFY(run.waitForFinished(kCliTimeoutMs));
        QVERIFY2(applied, valueOf(*down_, "SELECT COUNT(*) FROM mss_a.t").c_str());
        QCOMPARE(run.exitCode(), 0);

        CliResult status = cli(taskArgs("status", sourceB_));
        QVERIFY2(status.exitCode == 0, (status.out + status.err).c_str());
        QVERIFY2(status.out.find("task mss_task: 2 sources, ") == 0, status.out.c_str());
        QVERIFY2(status.out.find("0 anomalies") != std::string::npos, status.out.c_str());
        const size_t sectionA = status.out.find("task mss_task (source mss-a)");
        const size_t sectionB = status.out.find("task mss_task (source mss-b)");
        QVERIFY2(sectionA != std::string::npos && sectionB != std::string::npos && sectionA < sectionB,
                 status.out.c_str());
        // Each section has its own database's table point only.
        QVERIFY2(status.out.find("mss_a.t", sectionA) < sectionB, status.out.c_str());
        QVERIFY2(status.out.find("mss_b.t", sectionB) != std::string::npos, status.out.c_str());
        QVERIFY2(status.out.find("mss_b.t") > sectionB, status.out.c_str());

        json whole = parsed(cli(taskArgs("status", sourceB_) << QStringLiteral("--json")));
        QVERIFY2(whole.is_object() && whole["sources"].size() == 2, whole.dump(2).c_str());
        QCOMPARE(whole["whole_task"]["sources"].get<int>(), 2);
        QCOMPARE(whole["whole_task"]["sources_without_checkpoint"].get<int>(), 0);
        QCOMPARE(whole["whole_task"]["anomalies"].get<int>(), 0);
        for (int i = 0; i < 2; ++i) {
            const json& source = whole["sources"][i];
            QCOMPARE(source["source_id"].get<std::string>(), std::string(i == 0 ? kSourceA : kSourceB));
            QVERIFY2(source["global"].is_object(), source.dump(2).c_str());
            QVERIFY2(source["behind_upstream"]["files"].is_number(), source.dump(2).c_str());
            QCOMPARE(source["tables"].size(), size_t(1));
            QCOMPARE(source["tables"][0]["schema"].get<std::string>(), std::string(i == 0 ? kDatabaseA : kDatabaseB));
        }
    }

    void anAnomalyOfOneSourceIsCountedInItsSectionOnly() {
        // Source B's table point moved past its global point, as an external writer could leave it.
        insertRows(kDatabaseB, kRows + 1);
        auto master = up_->query("SHOW MASTER STATUS");
        const std::string gtid = valueOf(*up_, "SELECT @@GLOBAL.gtid_binlog_pos");
        down_->execute("UPDATE " + checkpointTable() + " SET binlog_pos = " + *master.front()[1] + ", binlog_gtid = '" +
                       gtid + "' WHERE id = '" + kSourceB + "' AND is_global = 0");

        CliResult text = cli(taskArgs("status", sourceB_));
        QVERIFY2(text.exitCode == 0, (text.out + text.err).c_str());
        QVERIFY2(text.out.find(", 1 anomaly;") != std::string::npos, text.out.c_str());
        const size_t sectionB = text.out.find("task mss_task (source mss-b)");
        QVERIFY2(text.out.find("AHEAD OF THE GLOBAL POINT") > sectionB, text.out.c_str());

        json status = parsed(cli(taskArgs("status", sourceB_) << QStringLiteral("--json")));
        QCOMPARE(status["whole_task"]["anomalies"].get<int>(), 1);
        QCOMPARE(status["sources"][0]["anomalies"].get<int>(), 0);
        QCOMPARE(status["sources"][1]["anomalies"].get<int>(), 1);
        QVERIFY(status["sources"][1]["tables"][0]["ahead_of_global"].get<bool>());

        CliResult checkpoints = cli(taskArgs("checkpoints", sourceB_) << QStringLiteral("--json"));
        QVERIFY2(checkpoints.exitCode == 0, (checkpoints.out + checkpoints.err).c_str());
        json inspected = parsed(checkpoints);
        QCOMPARE(inspected["anomalies"].get<int>(), 1);
        QCOMPARE(inspected["sources"].size(), size_t(2));
        QCOMPARE(inspected["sources"][0]["source_id"].get<std::string>(), std::string(kSourceA));
        QCOMPARE(inspected["sources"][0]["anomaly_count"].get<int>(), 0);
        QVERIFY(inspected["sources"][0]["checked_against_upstream"].get<bool>());
        QCOMPARE(inspected["sources"][1]["anomaly_count"].get<int>(), 1);
        QCOMPARE(inspected["sources"][1]["tables"][0]["anomalies"][0]["kind"].get<std::string>(),
                 std::string("table-ahead-of-global"));
        QVERIFY2(inspected["sources"][1]["upstream"]["current"].is_object(), inspected.dump(2).c_str());

        CliResult checkpointsText = cli(taskArgs("checkpoints", sourceB_));
        QVERIFY2(checkpointsText.exitCode == 0, checkpointsText.err.c_str());
        QVERIFY2(
            checkpointsText.out.find("task mss_task: checkpoint table `dm_meta`.`mss_task_syncer_checkpoint`") == 0,
            checkpointsText.out.c_str());
        QVERIFY2(checkpointsText.out.find("2 source(s), 1 anomaly") != std::string::npos, checkpointsText.out.c_str());
        const size_t textB = checkpointsText.out.find("\nsource mss-b (");
        QVERIFY2(checkpointsText.out.find("\nsource mss-a (") < textB, checkpointsText.out.c_str());
        QVERIFY2(checkpointsText.out.find("table-ahead-of-global") > textB, checkpointsText.out.c_str());
    }

    void rowsOfASourceWithoutAFileAreNamed() {
        down_->execute("INSERT INTO " + checkpointTable() +
                       " (id, cp_schema, cp_table, binlog_name, binlog_pos, binlog_gtid, exit_safe_binlog_name, "
                       "exit_safe_binlog_pos, exit_safe_binlog_gtid, table_info, is_global) SELECT 'mss-gone', "
                       "cp_schema, cp_table, binlog_name, binlog_pos, binlog_gtid, exit_safe_binlog_name, "
                       "exit_safe_binlog_pos, exit_safe_binlog_gtid, table_info, is_global FROM " +
                       checkpointTable() + " WHERE id = '" + kSourceA + "' AND is_global = 1");
        CliResult text = cli(taskArgs("checkpoints", sourceB_));
        QVERIFY2(
            text.out.find("rows of source id 'mss-gone', which none of the --source files is") != std::string::npos,
            text.out.c_str());
        json inspected = parsed(cli(taskArgs("checkpoints", sourceB_) << QStringLiteral("--json")));
        QCOMPARE(inspected["other_source_ids"], json::array({"mss-gone"}));
        down_->execute("DELETE FROM " + checkpointTable() + " WHERE id = 'mss-gone'");
    }

    void anUnreachableUpstreamFailsWithBothSectionsShown() {
        auto unreachable = syncscope::test::upstreamReplication();
        unreachable.port = syncscope::test::freeLoopbackPort();
        const std::string badB = syncscope::test::writeSourceFile(configDir_ + "/unreachable", kSourceB, unreachable);
        CliResult status = cli(taskArgs("status", badB));
        QCOMPARE(status.exitCode, 1);
        QVERIFY2(status.out.find("1 upstream(s) unreadable") != std::string::npos, status.out.c_str());
        const size_t sectionB = status.out.find("task mss_task (source mss-b)");
        QVERIFY2(sectionB != std::string::npos, status.out.c_str());
        QVERIFY2(status.out.find("upstream    unreadable", sectionB) != std::string::npos, status.out.c_str());
        // B's checkpoint is still shown from the downstream.
        QVERIFY2(status.out.find("AHEAD OF THE GLOBAL POINT", sectionB) != std::string::npos, status.out.c_str());
        QVERIFY2(status.err.find("upstream of source mss-b") != std::string::npos, status.err.c_str());
        QVERIFY2(status.out.find("task mss_task (source mss-a)") < sectionB, status.out.c_str());

        CliResult checkpoints = cli(taskArgs("checkpoints", badB));
        QCOMPARE(checkpoints.exitCode, 1);
        QVERIFY2(checkpoints.out.find("upstream unreadable") != std::string::npos, checkpoints.out.c_str());
        QVERIFY2(checkpoints.err.find("upstream of source mss-b") != std::string::npos, checkpoints.err.c_str());
    }

    void badUsageIsRefused_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("named");
        const QString task = QString::fromStdString(taskFile_);
        const QString a = QString::fromStdString(sourceA_);
        QTest::addRow("status: one source file twice")
            << QStringList{"status", task, "--source", a, "--source", a} << 1 << "both have source-id 'mss-a'";
        QTest::addRow("checkpoints: a task file without --source")
            << QStringList{"checkpoints", task} << 2 << "TASK.yaml and --source";
        QTest::addRow("checkpoints: a task file and --target")
            << QStringList{"checkpoints", task, "--source", a, "--target", "127.0.0.1:1"} << 2 << "either";
        QTest::addRow("checkpoints: two task files")
            << QStringList{"checkpoints", task, task, "--source", a} << 2 << "more than one task file";
        QTest::addRow("status: --source without a value")
            << QStringList{"status", task, "--source"} << 2 << "--source needs a value";
    }

    void badUsageIsRefused() {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QFETCH(QString, named);
        CliResult result = cli(args);
        QCOMPARE(result.exitCode, exitCode);
        QVERIFY2(result.err.find(named.toStdString()) != std::string::npos, result.err.c_str());
    }
};

}  // namespace

QTEST_GUILESS_MAIN(MultiSourceStatusTest)
#include "test_multi_source_status.moc"
